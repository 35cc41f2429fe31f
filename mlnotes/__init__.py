"""mlnotes: the math of the author's machine-learning study notes, executable.

Modules:
    embeddings: sinusoidal positional embeddings (Vaswani et al. 2017, section 3.5).
    probability: random variables, Bayes' rule and the Monty Hall problem (Murphy 2022, ch. 2).
    distributions: the Bernoulli, binomial, Poisson and geometric pmfs written out.
    linalg: distances, projections, Gram-Schmidt and eigen-decompositions.
    cnn: the output size of a convolution (stride, padding, dilation).
    plotting: the light and dark figure styles shared by the figure scripts.
"""

__version__ = "0.1.0"
