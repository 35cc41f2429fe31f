import math

import torch
import torch.nn as nn


class SinusoidalEmbeddings(nn.Module):

    def __init__(self, max_pos:int, embed_dim: int):
        super().__init__()
        # Returns a tensor with shape (max_pos, 1).
        positions = torch.arange(max_pos).unsqueeze(1).float()

        # Creates a tensor with shape (embed_dim //2,). We just need
        # half of the dimensions of the input embeddings to compute all
        # of the sinusoidal embeddings frequencies
        dimensions = torch.arange(start = 0, end = embed_dim, step = 2).float()

        # Compute the frequencies vector
        frequencies = torch.exp(dimensions * -(math.log(10000.0) / embed_dim))

        # Initialize the embeddings tensor with shape (max_pos, embed_dim)
        embeddings = torch.zeros(max_pos, embed_dim, requires_grad=False)

        # Apply sin to even indices (0, 2, 4, ...) of the input embeddings
        embeddings[:, 0::2] = torch.sin(positions * frequencies)

        # Apply cos to odd indices (1, 3, 5, ...) of the input embeddings
        embeddings[:, 1::2] = torch.cos(positions * frequencies)

        self.embeddings = embeddings

    def forward(self, x, t):
        embeds = self.embeddings[t].to(x.device)
        return embeds[:, :, None, None]


if __name__ == "__main__":
    pe = SinusoidalEmbeddings(max_pos=100, embed_dim=4)
    print(pe.embeddings.shape)  # torch.Size([100, 4])
    x = torch.zeros(3, 4)  # a batch of 3 inputs
    print(pe(x, torch.tensor([0, 1, 2])).shape)  # torch.Size([3, 4, 1, 1])
