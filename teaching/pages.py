"""The lab's pages, listed once: app.py registers them with `st.navigation` (its menu
shows them in this order), the frame links to them by label, and the replicas are
warmed on each (deploy/cluster.py). Pure data: no Streamlit here.
"""

from __future__ import annotations

from typing import NamedTuple


class Page(NamedTuple):
    script: str  # the page's script, relative to app.py
    label: str  # in the menu and in links to it
    icon: str
    url_path: str  # after the app's address; "" is the home page, the default


PAGES = (
    Page("screens/home.py", "Home", ":material/home:", ""),
    Page("screens/playground.py", "Playground", ":material/grid_on:", "playground"),
    Page("screens/batch.py", "Batch", ":material/stacks:", "batch"),
    Page("screens/lesson.py", "Lesson", ":material/school:", "lesson"),
    Page("screens/exercises.py", "Exercises", ":material/quiz:", "exercises"),
    Page("screens/class_page.py", "Class", ":material/co_present:", "class"),
    Page("screens/join.py", "Join", ":material/how_to_reg:", "join"),
)
PAGE_BY_LABEL = {page.label: page for page in PAGES}
URL_PATHS = tuple(page.url_path for page in PAGES)

# The first seed's question at its own size: the Batch page at 100 digits, on the tab
# that counts each window's winners and puts the asker's idea to the test.
SEED_BATCH_QUERY = {"n": "100", "tab": "winners"}
SEED_BATCH_LABEL = "A batch of 100: who picked each cell, and “split over every max” tested"
