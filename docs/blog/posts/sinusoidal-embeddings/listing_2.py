import matplotlib.pyplot as plt

from listing_1 import SinusoidalEmbeddings

max_pos = 100

# Our embeddings will only have 4 dimension
embed_dim = 4
sinusoidal_embeddings = SinusoidalEmbeddings(max_pos, embed_dim)

# Generate embeddings for a range of time steps
embeddings = sinusoidal_embeddings.embeddings

# Convert embeddings to numpy for plotting
embeddings_np = embeddings.numpy()

# Plot the sinusoidal embeddings for different time steps
plt.figure(figsize=(14, 8))
for i in range(embed_dim):
    plt.plot(embeddings_np[:, i], label=f"Dim {i} (i = {i//2})")

plt.title("SE(pos, 2i)")
plt.xlabel("pos")
plt.ylabel("Value")
plt.legend(loc="upper right", bbox_to_anchor=(1.15, 1))
plt.show()
