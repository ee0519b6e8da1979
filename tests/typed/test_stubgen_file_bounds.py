"""``wadlclient stubgen`` reads no WADL file bigger than any WADL (issue 40, point 4).

A FIFO or a link to ``/dev/zero`` is no WADL file to the command line
already; a sparse file of gigabytes is one, and read whole it would
exhaust memory.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wadlclient.cli import main

#: A sparse file this big, read whole, would exhaust the memory of most machines.
HUGE = 3 << 30


@pytest.mark.parametrize("name", ["huge.wadl", "huge.wadl.gz"])
def test_a_wadl_file_of_gigabytes_is_one_line_of_error_and_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    huge = tmp_path / name
    with huge.open("wb") as out:
        out.truncate(HUGE)

    status = main(["stubgen", str(huge), "--output", str(tmp_path), "--name", "typed"])

    assert status == 1
    assert capsys.readouterr().err == (
        f"wadlclient: {huge}: cannot be read (it holds {HUGE} bytes, more than any WADL)\n"
    )
    assert not (tmp_path / "typed").exists()
