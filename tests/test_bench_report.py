"""scripts/dev/bench_report.py: BENCHMARKS.md from sample results, in the shapes that
bench.py, bench_pages.py, bench_loop.py and bench_reader.py write."""

import json

import bench_report  # scripts/dev, on sys.path through pytest's `pythonpath` (pyproject.toml)

BENCH = {
    "rows": [
        ["docs/notes/cnn.md edited", "8.0 s"],
        ["  expected by the cache keys", "figures: cnn_a; notebooks: cnn (as redone)"],
        ["distances: pairwise_distances n=2000", "0.12 s, peak 31 MiB"],
        ["tests: make test's pytest (-n auto --dist loadgroup; 1 run)", "400 s"],
    ],
    "machine": {
        "cpus": 2,
        "python": "3.11.2",
        "torch": "2.13.0+cpu",
        "threads": 2,
        "loadavg_start": 1.25,
        "loadavg_end": 2.5,
    },
    "builds": {
        "cold": {"seconds": 40.0, "returncode": 0, "figures": ["a", "b"], "notebooks": ["cnn"]},
        "warm": {"seconds": 8.0, "returncode": 0, "figures": [], "notebooks": []},
        "page": {"seconds": 10.0, "returncode": 0, "figures": [], "notebooks": []},
        "module": {"seconds": 20.0, "returncode": 1, "figures": ["cnn_a"], "notebooks": []},
    },
    "diff": {
        "clean tree, base built": {"seconds": 20.0, "returncode": 0, "pages": 0},
        "one-page edit, base recorded": {"seconds": 12.0, "returncode": 0, "pages": 1},
    },
    "tree": {"commit": "0123456789abcdef0123456789abcdef01234567", "dirty": True},
    "hashes": {
        "a.svg": "0",
        "a-dark.svg": "1",
        "a/k=1.svg": "2",
        "a/k=1-dark.svg": "3",
        "a/manifest.json": "4",
    },
    "determinism": {"seconds": 41.0, "differing": []},
    "tests": {
        "all": {"seconds": 400.0, "returncode": 0, "summary": "1200 passed in 400.00s"},
        "quick": {"seconds": 100.0, "returncode": 0, "summary": "900 passed in 99.00s"},
    },
}
PAGES = {
    "pages": {
        "notes/cnn/": {
            "bytes": 300 * 1024,
            "requests": 12,
            "by_kind": {"html": 100 * 1024, "img": 200 * 1024},
            "math": 70,
        },
        "": {"bytes": 100 * 1024, "requests": 5, "by_kind": {"html": 100 * 1024}, "math": 0},
    },
    "heaviest": "notes/cnn/",
    "typeset_ms": [300.0, 500.0, 400.0],
    "dom_content_loaded_ms": [100.0, 200.0, 150.0],
    "load_ms": [250.0, 260.0, 270.0],
    "instant_typeset_ms": 90.0,
}
LOOP = {
    "scales": {
        "1": {
            "cold_build": 40.0,
            "warm_build": 8.0,
            "cold_peak_mib": 900,
            "warm_peak_mib": 1100,
            "notes_pages": 3,
            "figure_scripts": 15,
            "loop": {
                k: {"median": m} for k, m in (("page", 1.0), ("docstring", 2.0), ("figure", 4.0))
            },
            "ratio_page_to_warm": 0.125,
            "ratio_docstring_to_warm": 0.25,
            "ratio_figure_to_warm": 0.5,
        }
    }
}


def lighthouse(performance, tbt, failed=()):
    return {
        "performance": performance,
        "tbt_ms": tbt,
        "lcp_ms": 2500.0,
        "bytes": 200 * 1024,
        "accessibility_failed": list(failed),
    }


READER = {
    "lighthouse": "13.5.0",
    "runs": 3,
    "pages": {
        "post": {
            "path": "blog/x/",
            "mobile": [lighthouse(90, 100), lighthouse(96, 300), lighthouse(99, 200)],
            "desktop": [lighthouse(100, 0), lighthouse(100, 0), lighthouse(100, 10)],
        },
        "notes/cnn": {
            "path": "notes/cnn/",
            "mobile": [lighthouse(92, 150, ["color-contrast"])] * 3,
            "desktop": [lighthouse(99, 0)] * 3,
        },
        "reference/linalg": {  # not a reading page: mobile only
            "path": "reference/linalg/",
            "mobile": [lighthouse(91, 250), lighthouse(93, 180), lighthouse(95, 190)],
            "desktop": [],
        },
    },
    "seconds": 1500,
    "inp": {
        "figures": [
            {
                "page": "notes/cnn/",
                "figure": "fig-cnn_a",
                "steps_ms": [120, None, 88],
                "inp_ms": 120,
                "median_ms": 88,
                "slowdown": 4,
            },
            {
                "page": "blog/x/",
                "figure": "fig-x",
                "steps_ms": [216, 136, 88, 96, 104],
                "inp_ms": 216,
                "median_ms": 104,
                "slowdown": 4,
            },
        ]
    },
}


def write(folder, **files):
    folder.mkdir(exist_ok=True)
    for name, data in files.items():
        (folder / f"{name}.json").write_text(json.dumps(data), encoding="utf-8")
    return folder


def row(text, first_cell):
    """The cells of the table row whose first cell is `first_cell`."""
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and cells[0] == first_cell:
            return cells
    raise AssertionError(f"no row {first_cell!r} in:\n{text}")


def test_every_table_from_one_run(tmp_path):
    results = write(tmp_path / "r", bench=BENCH, pages=PAGES, loop=LOOP, reader=READER)
    out = tmp_path / "BENCHMARKS.md"
    assert bench_report.main(["--results", str(results), "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Not measured" not in text
    assert "2 cores, Python 3.11.2, torch 2.13.0+cpu (2 threads)" in text
    # builds: seconds and the ratio to the cold build; a failed build says so
    assert row(text, "warm")[1:3] == ["8.0", "0.20"]
    assert row(text, "one `mlnotes` function edited (FAILED, exit 1)")[1:4] == [
        "20.0",
        "0.50",
        "cnn_a",
    ]
    # the change report, against the warm build
    assert row(text, "one-page edit, base recorded")[1:3] == ["12.0", "1.50"]
    assert "4 SVGs (2 of them frames) and 1 manifests, byte-identical." in text
    # the commit bench.py started at, not the checkout's when the report is written
    assert "Tree: commit 0123456789ab with changes not committed, when bench.py started." in text
    assert row(text, "distances: pairwise_distances n=2000") == [
        "distances: pairwise_distances n=2000",
        "0.12 s, peak 31 MiB",
    ]
    # pages: heaviest first, KiB, median timings of the heaviest
    assert text.index("| /notes/cnn/ |") < text.index("| / |")
    assert row(text, "/notes/cnn/")[1:3] == ["300", "12"]
    assert "DOMContentLoaded 150 ms, load 260 ms, math shown 400 ms" in text
    assert "click to math shown 90 ms" in text
    # the edit loop: each edit's median and its ratio to the warm build
    assert row(text, "1x")[3:] == [
        "40.0 s",
        "8.0 s",
        "1,100",
        "1.00 s = 0.12 × warm",
        "2.00 s = 0.25 × warm",
        "4.00 s = 0.50 × warm",
    ]
    # Lighthouse: medians of the runs per page and mode
    assert row(text, "post")[1:4] == ["96", "200", "2.5"]
    assert row(text, "post")[5:7] == ["100", "0"]
    assert "median of 3 runs" in text
    assert "The run took 25 min." in text
    # every page listed; no desktop run shows as such; the budget: mobile >= 90, TBT <= 200
    assert row(text, "reference/linalg")[1:] == ["93", "190", "2.5", "yes", "—", "—", "—", "200"]
    assert row(text, "post")[4] == "yes"  # 96, 200 ms: at the budget's edge
    assert row(text, "notes/cnn")[4] == "yes"
    assert "3 of 3 pages within the budget." in text
    # every explorable figure: its worst and median step, and whether every step is within
    assert row(text, "`fig-cnn_a`")[1:] == ["`/notes/cnn/`", "120", "88", "yes", "120, < 16, 88"]
    assert row(text, "`fig-x`")[2:5] == ["216", "104", "**no**"]
    assert "1 of 2 figures within the budget on every step." in text
    assert "notes/cnn (mobile): color-contrast" in text
    # the suite and the quick tier, and their ratio
    assert row(text, "`make test` (pytest -n auto --dist loadgroup)")[1:3] == ["400", "1.00"]
    assert row(text, "`make check`'s tests")[1:3] == ["100", "0.25"]


def test_a_page_over_budget_and_no_slider_say_so(tmp_path):
    reader = json.loads(json.dumps(READER))
    reader["pages"]["post"]["mobile"][2]["tbt_ms"] = 201  # 100, 300, 201: the median 201 ms
    reader["pages"]["notes/cnn"]["mobile"] = [lighthouse(89, 10)]
    reader["inp"] = {"reason": "no explorable figure"}
    text = bench_report.render(write(tmp_path / "r", reader=reader), "commit abc")
    assert row(text, "post")[2:5] == ["201", "2.5", "**no**"]
    assert row(text, "notes/cnn")[1:5] == ["89", "10", "2.5", "**no**"]
    assert "1 of 3 pages within the budget." in text
    assert "measured again, the page having first painted well after its load" in text
    assert text.count("GoogleChrome/lighthouse#17148") == 1
    assert "`LATE_FIRST_PAINT_MS` in bench_reader.py): none." in text
    assert "Counted all the same" not in text
    assert (
        "Slider steps (Interaction to Next Paint, budget 200 ms on every step): "
        "Not measured (no explorable figure)." in text
    )


def test_the_runs_set_aside_are_counted_with_their_numbers(tmp_path):
    reader = json.loads(json.dumps(READER))
    aside = lighthouse(80, 100) | {"observed_load_ms": 530, "observed_fcp_ms": 1250}
    reader["pages"]["post"]["set_aside"] = {"mobile": [aside]}
    text = bench_report.render(write(tmp_path / "r", reader=reader), "commit abc")
    assert (
        "bench_reader.py): 1: post (mobile, performance 80, LCP 2.5 s; loaded at 530 ms, "
        "first painted at 1,250 ms)." in text
    )
    assert row(text, "post")[1:3] == ["96", "200"]  # the medians: of the runs that count
    assert "Counted all the same" not in text
    # late on every try: the run counts, and is listed as such
    reader["pages"]["notes/cnn"]["mobile"][0] = aside | {"late_first_paint": True}
    text = bench_report.render(write(tmp_path / "r2", reader=reader), "commit abc")
    assert "Counted all the same, late on every try (1): notes/cnn (mobile, performance 80" in text


def test_a_missing_results_file_says_so_instead_of_showing_numbers(tmp_path):
    results = write(tmp_path / "r", bench={"rows": [], "machine": BENCH["machine"]}, loop=LOOP)
    text = bench_report.render(results, "commit abc")
    # bench.py recorded no commit: the checkout's, said as such
    assert "Tree: commit abc when this report was written (bench.py recorded none)." in text
    for what, file in (
        ("builds", "bench.json"),
        ("test runs", "bench.json"),
        ("page loads", "pages.json"),
        ("Lighthouse runs", "reader.json"),
    ):
        assert f"Not measured in this run: no {what} in `bench-results/{file}`." in text
    assert "no edit loop" not in text  # loop.json was there
    assert row(text, "1x")[0] == "1x"
