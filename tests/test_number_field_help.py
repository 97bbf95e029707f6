"""Number fields through AppTest (issue 39, item 7): no "Help for ..." stop that only
repeats a field's range."""

PLAYGROUND = "screens/playground.py"
