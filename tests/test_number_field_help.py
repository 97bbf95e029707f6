"""Number fields through AppTest (issue 39, item 7): no "Help for ..." stop that only
repeats a field's range."""

import pytest
from apptest import open_app

from teaching.numbers import fmt

PLAYGROUND = "screens/playground.py"


@pytest.mark.parametrize("page", ["screens/home.py", "screens/batch.py", PLAYGROUND])
def test_no_number_fields_help_repeats_its_range(page):
    """A number field's help is one more stop for a keyboard (its "Help for ..."
    button): none says the field's range, which its min and max (and, where a reader
    needs it, its label or a caption) already say."""
    app = open_app(page)
    assert app.number_input
    for field in app.number_input:
        if field.min is None or field.max is None:
            continue
        ranges = {f"{fmt(field.min)} to {fmt(field.max)}", f"−{fmt(-field.min)} to"}
        assert not any(said in (field.help or "") for said in ranges), (field.label, field.help)
