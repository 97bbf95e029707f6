"""The Join page served with the push's private Streamlit internals missing, as a
Streamlit release that renamed them would leave it (tests/test_room_push.py): push.py
sees a runtime with no session manager, so nothing is pushed, and a phone must get
each round by its own poll (live.watch)."""

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ui.class_mode.student import push  # noqa: E402


class RuntimeWithoutInternals:
    """A runtime that exists but has no `_session_mgr`."""

    @staticmethod
    def exists() -> bool:
        return True

    @staticmethod
    def instance() -> object:
        return object()


push.Runtime = RuntimeWithoutInternals
runpy.run_path(str(ROOT / "screens" / "join.py"), run_name="__main__")
