"""What the server process does once, for every session after: the objects loaded by
its first page run (modules, Streamlit, Plotly, NumPy, the page models and caches made
then) are moved out of the garbage collector's sight with `gc.freeze()`.

Why: a full collection walks every object the collector tracks. After the first run
that is hundreds of thousands of objects that will live as long as the process, and a
full collection over them took up to 0.6 s (benchmarks/bench_room.py, a class of 200
polling one room): a pause every session on the replica waits through, since they all
share one interpreter lock. Frozen, they are never walked again; what later runs make
is collected as before. The cost: garbage left by the first run itself is never freed,
once per process.
"""

from __future__ import annotations

import gc

_state = {"frozen": False}  # a module's state outlives the script's reruns


def freeze_after_first_run() -> None:
    """Call at the end of the entry script: the first call freezes, later ones do
    nothing."""
    if _state["frozen"]:
        return
    _state["frozen"] = True
    gc.collect()  # what the first run left as garbage goes first, not frozen with the rest
    gc.freeze()
