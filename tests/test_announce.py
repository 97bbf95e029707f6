"""What the page's live region is asked to say (ui/shared/browser.py): a sentence drawn
as markdown said as plain words; announce_change silent on first sight and while the
sentence stays, and giving way to an error (if_silent); says_changes' container keyed
for browser.js, its name checked. In the browser: tests/test_browser_room_live.py."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from ui.shared import browser
from ui.shared.state import literal


@pytest.mark.parametrize(
    ("drawn", "said"),
    [
        ("**Round 2**. Tap  x.", "Round 2. Tap x."),
        (f"Your answer {literal('abc')} is not a number.", "Your answer abc is not a number."),
        (f"Typed {literal('a `b` c')} here.", "Typed a `b` c here."),  # only the fences go
        (f"**Saved**: {literal('a**b')}.", "Saved: a**b."),  # typed marks are said as typed
        ("No answers yet.", "No answers yet."),
    ],
)
def test_a_drawn_sentence_is_said_as_plain_words(drawn, said):
    assert browser.spoken(drawn) == said


def announcing_page():
    """A page run: an error when asked, then the round's news (if_silent); what the
    run asks the region to say kept in session state as `said`."""
    import streamlit as st

    from ui.shared import browser

    if st.session_state.get("error"):
        browser.announce(st.session_state["error"])
    browser.announce_change("round", st.session_state.get("news", "Round 1."), if_silent=True)
    st.session_state["said"] = browser._requests().said
    browser.mount()


def test_a_round_s_news_is_said_when_it_changes_and_gives_way_to_an_error():
    app = AppTest.from_function(announcing_page).run()
    runs = [
        ({}, None),  # first sight: a page loaded says nothing of what is there
        ({}, None),  # the same news again
        ({"news": "Round 2."}, "Round 2."),
        ({"news": "Round 2."}, None),
        ({"news": "Voting has closed.", "error": "**No** room."}, "No room."),  # error first
        ({"news": "Voting has closed.", "error": None}, None),  # drawn before: not news
        ({"news": "Round 3."}, "Round 3."),
    ]
    assert app.session_state["said"] is None
    for given, said in runs:
        for key, value in given.items():
            app.session_state[key] = value
        app.run()
        assert not app.exception
        assert app.session_state["said"] == said, given


def test_says_changes_keys_its_container_for_browser_js_and_keeps_what_is_in_it():
    def page():
        import streamlit as st

        from ui.shared import browser

        with browser.says_changes("room_count_3_2"):
            st.markdown("4 answers so far.")
        browser.mount()

    app = AppTest.from_function(page).run()
    assert not app.exception
    box = app.main.children[0]
    assert box.proto.id.endswith(f"-{browser.SAY_PREFIX}room_count_3_2")
    assert box.markdown[0].value == "4 answers so far."
    # browser.js looks for the class it is sent (Streamlit's st-key- and the prefix): the
    # prefix has one home, the Python that keys the containers.
    sent = browser.browser_data(browser.Requests(), set(), page=None)
    assert sent["say_prefix"] == browser.SAY_PREFIX
    assert browser.SAY_PREFIX not in browser.JS


@pytest.mark.parametrize("name", ["", "count 1", "a.b", "<b>", "x" * 81])
def test_a_says_changes_name_that_is_no_css_class_is_refused(name):
    with pytest.raises(ValueError, match="says_changes name"):
        browser.says_changes(name)
