import matplotlib.pyplot as plt
import torch

from listing_1 import SinusoidalEmbeddings


def broadcast_distances(embeddings):
    # A single column tensor where each row's single element contains an
    # entire sinusoidal embeddings tensor
    T_2 = embeddings[:, None, :]

    # A single row tensor where column's single element contains an
    # entire sinusoidal embeddings tensor
    T_1 = embeddings[None, :, :]

    # By broadcasting, this operation will save the desired differences
    # in the tensor's last dimension
    differences = T_2 - T_1

    # As the differences were saved in the last dimension, we need
    # to calculate the norm with respect to it, which is indicated
    # by dim=-1
    return torch.norm(differences, p=2, dim=-1)


if __name__ == "__main__":
    # We'll create embeddings with many dimensions to better see the
    # frequency decay effect
    max_pos = 1000
    embed_dim = 1000

    sinusoidal_embeddings = SinusoidalEmbeddings(max_pos, embed_dim).embeddings

    distances = broadcast_distances(sinusoidal_embeddings)

    # Plot the resulting 2D tensor as a heatmap
    plt.figure(figsize=(8, 6))
    plt.imshow(distances.numpy(), aspect="auto", cmap="PuRd")
    plt.colorbar(label="L2 Norm (Euclidean Distance)")
    plt.xlabel("pos")
    plt.ylabel("pos")
    plt.title("Euclidean Distances Between Different Position Sinusoidal Embeddings")
    plt.show()
