"""A tiny convolutional network, written out by hand, built on the pooling engine:
where a mini-batch's gradients are averaged, and what one SGD step does with them."""
