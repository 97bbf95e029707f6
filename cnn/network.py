"""A tiny CNN, written out by hand, to show where a batch's gradients are averaged.

input (N, 1, H, W) -> convolution with F learnable k x k kernels and biases -> optional
ReLU -> a pooling layer (any PoolConfig) -> flatten -> linear -> softmax cross-entropy,
averaged (or summed) over the batch.

Each example is run forward and backward on its own: its argmax routes only its own
gradient. Averaging happens where parameters are shared (the kernels, the biases, the
linear layer): dL/dtheta = (1/N) sum_n dL_n/dtheta.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from pooling.batch import reduce_batch
from pooling.config import PoolConfig
from pooling.ops import PoolResult, backward, forward

CLASSES = 10


@dataclass(frozen=True)
class Params:
    """kernels: (F, 1, k, k); bias: (F,); weights: (CLASSES, F*PH*PW); out_bias: (CLASSES,)."""

    kernels: np.ndarray
    bias: np.ndarray
    weights: np.ndarray
    out_bias: np.ndarray

    def fields(self) -> dict[str, np.ndarray]:
        return {
            "kernels": self.kernels,
            "bias": self.bias,
            "weights": self.weights,
            "out_bias": self.out_bias,
        }

    def step(self, grads: Params, learning_rate: float) -> Params:
        """Plain SGD: theta - learning_rate * dL/dtheta."""
        return Params(
            *(value - learning_rate * getattr(grads, name) for name, value in self.fields().items())
        )


@dataclass(frozen=True)
class NetConfig:
    """The network's shape: F kernels of k x k, ReLU or not, and its pooling layer."""

    kernels: int = 3
    kernel_size: int = 3
    relu: bool = True
    pool: PoolConfig = PoolConfig("max", 2)

    def __post_init__(self):
        if not 1 <= self.kernels <= 16:
            raise ValueError(f"kernels must be from 1 to 16, got {self.kernels}")
        if not 1 <= self.kernel_size <= 7:
            raise ValueError(f"kernel_size must be from 1 to 7, got {self.kernel_size}")


def conv_shape(config: NetConfig, height: int, width: int) -> tuple[int, int]:
    """Size of a 'valid' convolution's output; ValueError if the kernel does not fit."""
    out = (height - config.kernel_size + 1, width - config.kernel_size + 1)
    if min(out) < 1:
        raise ValueError(
            f"the {config.kernel_size}x{config.kernel_size} kernel does not fit "
            f"the {height}x{width} images"
        )
    return out


def init_params(config: NetConfig, image_shape: tuple[int, int], seed: int) -> Params:
    """Seeded He-style initialisation, sized for images of `image_shape`."""
    rng = np.random.default_rng(seed)
    conv_h, conv_w = conv_shape(config, *image_shape)
    pooled = forward(np.zeros((1, config.kernels, conv_h, conv_w)), config.pool).output
    fan_in = config.kernel_size**2
    kernels = rng.normal(
        0.0, np.sqrt(2.0 / fan_in), (config.kernels, 1, config.kernel_size, config.kernel_size)
    )
    weights = rng.normal(0.0, np.sqrt(1.0 / pooled.size), (CLASSES, pooled.size))
    return Params(kernels, np.zeros(config.kernels), weights, np.zeros(CLASSES))


@dataclass(frozen=True)
class Trace:
    """What the forward pass keeps for the backward pass.

    patches: (N, 1, CH, CW, k, k) the image patch under each conv position.
    conv: (N, F, CH, CW) before ReLU; activation: after it (the pooling input).
    pool: the PoolResult, output (N, F, PH, PW); flat: (N, F*PH*PW).
    probs: (N, CLASSES) softmax; losses: (N,) cross-entropy per example.
    relu: whether the ReLU was applied (its mask is conv > 0).
    """

    x: np.ndarray
    labels: np.ndarray
    patches: np.ndarray
    conv: np.ndarray
    activation: np.ndarray
    pool: PoolResult
    flat: np.ndarray
    probs: np.ndarray
    losses: np.ndarray
    relu: bool


def run_forward(params: Params, x: np.ndarray, labels: np.ndarray, config: NetConfig) -> Trace:
    """x: (N, 1, H, W) float; labels: (N,) ints in [0, CLASSES)."""
    x = np.asarray(x, dtype=np.float64)
    labels = np.asarray(labels)
    if x.ndim != 4 or x.shape[1] != 1:
        raise ValueError(f"x must be (N, 1, H, W), got shape {x.shape}")
    if labels.shape != (x.shape[0],) or labels.min() < 0 or labels.max() >= CLASSES:
        raise ValueError(f"labels must be {x.shape[0]} class numbers from 0 to {CLASSES - 1}")
    conv_shape(config, *x.shape[2:])
    patches = sliding_window_view(x, (config.kernel_size, config.kernel_size), axis=(2, 3))
    conv = (
        np.einsum("ncijkl,fckl->nfij", patches, params.kernels) + params.bias[None, :, None, None]
    )
    activation = np.maximum(conv, 0.0) if config.relu else conv
    pool = forward(activation, config.pool)
    flat = pool.output.reshape(x.shape[0], -1)
    logits = flat @ params.weights.T + params.out_bias
    # log-softmax: a probability that underflows to 0 still has a finite log.
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    probs = np.exp(log_probs)
    losses = -log_probs[np.arange(x.shape[0]), labels]
    return Trace(x, labels, patches, conv, activation, pool, flat, probs, losses, config.relu)


def batch_loss(trace: Trace, reduction: str) -> float:
    return float(reduce_batch(trace.losses, reduction))


@dataclass(frozen=True)
class Backward:
    """Gradients of L = sum_n scale_n * L_n, kept per example.

    per_example: Params whose arrays have a leading N axis: dL_n/dtheta, unscaled.
    at_pool_output: (N, F, PH, PW), dL_n/d(pooled) from the real loss.
    at_pool_input: (N, F, CH, CW), that gradient routed back through the pool.
    """

    per_example: Params
    at_pool_output: np.ndarray
    at_pool_input: np.ndarray

    def reduced(self, reduction: str) -> Params:
        """The batch gradient: mean (or sum) over examples of dL_n/dtheta."""
        return Params(
            *(reduce_batch(value, reduction) for value in self.per_example.fields().values())
        )


def logit_error(trace: Trace) -> np.ndarray:
    """(N, CLASSES): dL_n/dlogits of softmax cross-entropy, softmax - one_hot(label)."""
    error = trace.probs.copy()
    error[np.arange(trace.x.shape[0]), trace.labels] -= 1.0
    return error


def run_backward(params: Params, trace: Trace, logit_grad: np.ndarray | None = None) -> Backward:
    """Per-example backward. logit_grad: (N, CLASSES) dL_n/dlogits; by default the
    cross-entropy's (`logit_error`)."""
    if logit_grad is None:
        logit_grad = logit_error(trace)
    d_weights = logit_grad[:, :, None] * trace.flat[:, None, :]  # (N, C, D)
    at_pool_output = (logit_grad @ params.weights).reshape(trace.pool.output.shape)
    at_pool_input = backward(trace.pool, at_pool_output)
    at_conv = at_pool_input * (trace.conv > 0) if trace.relu else at_pool_input
    d_kernels = np.einsum("nfij,ncijkl->nfckl", at_conv, trace.patches)
    per_example = Params(d_kernels, at_conv.sum(axis=(2, 3)), d_weights, logit_grad)
    return Backward(per_example, at_pool_output, at_pool_input)


def batched_gradient(params: Params, trace: Trace, reduction: str) -> Params:
    """One backward pass of the reduced loss (scale each example's logit gradient by
    1/N for the mean), summed over the batch as a framework does."""
    scale = 1.0 / trace.x.shape[0] if reduction == "mean" else 1.0
    result = run_backward(params, trace, scale * logit_error(trace))
    return Params(*(value.sum(axis=0) for value in result.per_example.fields().values()))


def wrong_way_backward(params: Params, trace: Trace, config: NetConfig) -> tuple[Backward, Trace]:
    """The misconception: average the inputs and the error first, back-propagate once.

    Runs the averaged image forward (so one argmax per window, ReLU mask and so on, all
    taken from an image nobody fed in) and sends back the batch-mean logit gradient.
    Returns that backward pass (a batch of one) and the averaged image's trace.
    """
    mean_error = logit_error(trace).mean(axis=0, keepdims=True)
    averaged = run_forward(params, trace.x.mean(axis=0, keepdims=True), trace.labels[:1], config)
    return run_backward(params, averaged, mean_error), averaged


def wrong_way_gradient(params: Params, trace: Trace, config: NetConfig) -> tuple[Params, Trace]:
    """wrong_way_backward's parameter gradient (its batch axis of one dropped), and the
    averaged image's trace."""
    result, averaged = wrong_way_backward(params, trace, config)
    return Params(*(value[0] for value in result.per_example.fields().values())), averaged


def kernel_gradient_check(
    params: Params, x, labels, config: NetConfig, reduction: str, eps: float = 1e-6
) -> np.ndarray:
    """Central differences of the batch loss with respect to every kernel entry.
    Returns an array shaped like params.kernels."""
    numeric = np.zeros_like(params.kernels)
    for index in np.ndindex(params.kernels.shape):
        bumped = []
        for sign in (1.0, -1.0):
            kernels = params.kernels.copy()
            kernels[index] += sign * eps
            trace = run_forward(replace(params, kernels=kernels), x, labels, config)
            bumped.append(batch_loss(trace, reduction))
        numeric[index] = (bumped[0] - bumped[1]) / (2 * eps)
    return numeric
