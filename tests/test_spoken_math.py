"""Formulas' spoken forms (teaching/spoken_math.py, issue 39 item 7): the words say the
formula the page draws, with the engine's numbers in them."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from pooling import PoolConfig
from pooling.geometry import output_length
from teaching.formulas import batch_rule, ledger_formula, size_formula, step_rule
from teaching.spoken_math import spoken_latex


def test_the_batch_rule_is_said_as_a_sum_and_a_mean_not_a_run_of_symbols():
    said = spoken_latex(batch_rule("mean", 2))
    assert said == (
        "partial over (partial K) (1 over N the sum over n of L n) equals "
        "1 over N the sum over n of (partial L n) over (partial K), N equals 2"
    )
    assert "1 over N" not in spoken_latex(batch_rule("sum", 2))
    assert spoken_latex(step_rule("mean", "0.1")).startswith("K becomes K minus eta 1 over N")


def test_a_ledger_is_said_term_by_term_with_where_each_comes_from():
    lines = [
        SimpleNamespace(share=0.5, upstream=2.0, output_cell=(0, 1)),
        SimpleNamespace(share=1.0, upstream=-3.0, output_cell=(1, 1)),
    ]
    total = sum(line.share * line.upstream for line in lines)
    assert spoken_latex(ledger_formula((1, 2), lines, total)) == (
        "(partial L) over (partial x 1,2) equals 0.5 times 2 (from y 0,1) plus "
        "1 times minus 3 (from y 1,1) equals minus 2"
    )
    assert spoken_latex(ledger_formula((0, 0), [], 0.0)).endswith(
        "equals 0, (no window sends anything here)"
    )


@pytest.mark.parametrize("ceil", [False, True])
def test_the_size_formula_says_pytorchs_rule_and_ends_on_the_engines_size(ceil):
    config = PoolConfig(kernel_size=(2, 3), stride=(2, 2), padding=(1, 1), ceil_mode=ceil)
    for axis, (size, line) in enumerate(zip((5, 6), size_formula(config, 5, 6), strict=True)):
        said = spoken_latex(line)
        symbol, bracket = "HW"[axis], "ceiling" if ceil else "floor"
        assert said.startswith(f"{symbol} out equals {bracket} of (({symbol} plus 2p minus")
        length = output_length(size, config.kernel_size[axis], 2, 1, 1, ceil)
        assert said.endswith(f"equals {length}"), said
        assert "\\" not in said and "{" not in said


def test_a_command_it_does_not_know_is_said_by_name_never_dropped():
    assert spoken_latex(r"a \oplus b") == "a oplus b"
