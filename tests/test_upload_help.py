"""The upload help names the expected columns, including ``y``; a decimal-comma or semicolon file gets a hint."""

from __future__ import annotations

import pytest

from olcore import StreamError, streams

LABELS = {"experts": "0 or 1", "experts01": "[0, 1]", "linear": "-1 or +1", "disjunction": "0 or 1",
          "regression": "real number", "oco": "-1 or +1"}


@pytest.mark.parametrize("kind", list(streams.KINDS))
def test_the_help_names_every_column_and_the_label_y_with_its_values(kind):
    help_ = streams.format_help(kind)
    prefix = {"experts": "e", "experts01": "e", "losses": "l"}.get(kind, "x")
    assert f"`{prefix}1`, `{prefix}2`, …" in help_, help_
    if kind == "losses":
        assert "no `y` column" in help_, help_
    else:
        assert "then `y`:" in help_ and LABELS[kind] in help_.split("then `y`:")[1].split(".")[0], help_
    assert "commas" in help_ and "`0.5`, not `0,5`" in help_
    assert streams.template_csv(kind).split("\n")[0].startswith(f"{prefix}1,")     # the template agrees


@pytest.mark.parametrize("text, sep", [
    ("x1;x2;y\n1,5;2,0;-1\n", "';'"),                  # the example: a decimal-comma locale
    ("x1;x2;y\n0.5;0.25;1\n1,5;2;-1\n", "';'"),        # one row written with a comma decimal
    ("x1\tx2\ty\n1,5\t2\t1\n", "a tab"),
    ("x1,x2,y\n1,5;2,0;-1\n", "';'"),                  # a comma header, rows from a ';' locale
])
def test_a_decimal_comma_file_gets_a_hint(text, sep):
    with pytest.raises(StreamError) as e:
        streams.read_csv(text, "linear")
    msg = str(e.value)
    assert f"seems to use {sep} between columns and ',' as the decimal mark" in msg, msg
    assert "save it with ',' between columns and '.' as the decimal mark" in msg, msg
    assert "line 2" in msg or "line 3" in msg, msg                       # the error itself is still there


def test_rows_with_another_separator_than_the_header_get_a_hint():
    for text, other in [("x1,x2,y\n1;2;1\n", "';'"), ("x1;x2;y\n1,2,1\n", "','")]:
        with pytest.raises(StreamError) as e:
            streams.read_csv(text, "linear")
        msg = str(e.value)
        assert "line 2: found 1 value; expected 3" in msg and other in msg and "use one separator" in msg, msg


def test_a_comma_decimal_in_a_comma_file_gets_a_hint():
    with pytest.raises(StreamError) as e:
        streams.read_csv("x1,y\n0,5,1\n", "linear")
    msg = str(e.value)
    assert "found 3 values; expected 2" in msg and "decimals with a comma" in msg, msg


def test_semicolon_files_with_decimal_points_are_still_read_and_good_errors_get_no_hint():
    s = streams.read_csv("x1;x2;y\n0.5;0.25;1\n-0.5;0.1;-1\n", "linear")
    assert s.X.tolist() == [[0.5, 0.25], [-0.5, 0.1]]
    with pytest.raises(StreamError) as e:
        streams.read_csv("x1,x2,y\n0.1,abc,1\n", "linear")
    assert str(e.value) == "line 2, column 2: found 'abc'; expected a number."


def test_file_level_messages_name_no_internal_field():
    for data, start in [(b"", "The file is empty"), (b"x1,y\n", "The file: found a header but no rounds"),
                        (b"\x00\x01", "The file: found binary data")]:
        with pytest.raises(StreamError) as e:
            streams.read_csv(data, "linear")
        assert str(e.value).startswith(start), str(e.value)
