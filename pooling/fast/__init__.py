"""The fast wing: quicker ways to compute what the general path computes.

Every kernel has the one shape of `kernel.Kernel`; the ordered table `table.KERNELS`
is the only place that chooses one (`table.choose`), and `pooling.ops` asks it, falling
back to `pooling.windows.route` when no kernel takes a layer. `run` runs the chosen
kernel a chunk of planes at a time (`chunks`); what kernels share lives in `taps` (tap
numbers to argmax, the -inf repair, the tap dtype), `padded` (the padded planes) and
`scan` (the running maximum). Each kernel module (`small`, `flat`, `tiles`, `phases`,
`shifted`) caches its own plan per geometry. `memory.keep_freed_memory` is the
allocator tuning the app and the benchmarks switch on at start-up; importing the
engine changes nothing in the process.
"""

from pooling.fast.kernel import Kernel
from pooling.fast.memory import keep_freed_memory
from pooling.fast.table import KERNELS, by_name, choose

__all__ = ["KERNELS", "Kernel", "by_name", "choose", "keep_freed_memory"]
