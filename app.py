"""Pooling Backprop Lab: `streamlit run app.py`. The entry point registers every page
(teaching/pages.py: script, label, icon, URL path; made once a session:
ui/shared/navigation.py) and runs the one the URL names; each
page's own script is in screens/.
"""

import streamlit as st

from pooling import keep_freed_memory
from ui.shared import browser
from ui.shared.navigation import session_pages
from ui.shared.process import freeze_after_first_run

keep_freed_memory()  # the process keeps freed blocks for the next call: pooling/fast/memory.py

shown = st.navigation(session_pages())
browser.on_page(shown.url_path)  # a page being left stays quiet: ui/shared/browser.py
shown.run()
freeze_after_first_run()  # the loaded objects out of the collector's walks: ui/shared/process.py
