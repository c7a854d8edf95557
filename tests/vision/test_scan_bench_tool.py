"""bench/scan_bench.py: the speed table (with each photo's quality and its reference decode's page faults),
and ``--quality``, which saves the same photos at one quality."""


def _rows(out: str) -> list[list[str]]:
    return [[c.strip() for c in line.strip("|").split("|")] for line in out.splitlines() if line.startswith("| 9")]


def test_the_table_gives_each_photo_its_quality_and_quality_sets_it(bench_tool, capsys):
    tool = bench_tool("scan_bench")
    assert tool.main(["--photos", "1", "--repeat", "1", "--classifier", "truth"]) == 0
    drawn = _rows(capsys.readouterr().out)
    assert len(drawn) == 1 and drawn[0][0] == "900000" and 70 <= int(drawn[0][2]) <= 95
    assert int(drawn[0][4]) >= 0  # the reference decode's page faults (docs/performance.md)
    assert drawn[0][-2:] == ["none", "none"]  # whole at one look: no closer look, no look with the light evened
    assert tool.main(["--photos", "1", "--repeat", "1", "--classifier", "truth", "--quality", "80"]) == 0
    out = capsys.readouterr().out
    given = _rows(out)
    assert given[0][2] == "80" and given[0][0] == "900000"
    assert float(given[0][1]) != float(drawn[0][1])  # saved at another quality (the same scene: test_scenes.py)
    assert "median scan / imdecode:" in out
