"""scripts/dev/bench.py: the determinism check's files (every SVG under docs/figures/, the
explorable figures' frames and manifests included) and the commit it records at its start."""

import subprocess

import bench  # scripts/dev, on sys.path through pytest's `pythonpath` (pyproject.toml)


def _figures(tree, files):
    for name, text in files.items():
        path = tree / "docs" / "figures" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tree


FILES = {
    "a.svg": "<svg>a</svg>",
    "a-dark.svg": "<svg>a dark</svg>",
    "a/k=1.svg": "<svg>a k=1</svg>",
    "a/k=1-dark.svg": "<svg>a k=1 dark</svg>",
    "a/manifest.json": "{}",
    "a/notes.txt": "not compared",
}


def test_every_svg_and_manifest_under_the_figures_is_compared(tmp_path):
    first = bench.figure_hashes(_figures(tmp_path / "one", FILES))
    assert sorted(first) == [
        "a-dark.svg",
        "a.svg",
        "a/k=1-dark.svg",
        "a/k=1.svg",
        "a/manifest.json",
    ]
    second = bench.figure_hashes(_figures(tmp_path / "two", FILES))
    assert bench.compare_figures(first, second) == (
        [],
        "4 SVGs and 1 manifests, byte-identical",
    )
    # a frame that differs, and a manifest in one build only, are named
    changed = _figures(tmp_path / "three", {**FILES, "a/k=1-dark.svg": "<svg>other</svg>"})
    (changed / "docs" / "figures" / "a" / "manifest.json").unlink()
    differing, verdict = bench.compare_figures(first, bench.figure_hashes(changed))
    assert differing == ["a/k=1-dark.svg", "a/manifest.json"]
    assert verdict == "DIFFER: a/k=1-dark.svg, a/manifest.json"
    assert bench.compare_figures({}, {}) == ([], "no figures to compare")


def test_the_commit_is_recorded_and_whether_the_tree_was_dirty(tmp_path):
    assert bench.tree_commit(tmp_path) == {"commit": None, "dirty": False}
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.org"]
    (tmp_path / "a.txt").write_text("a\n")
    for command in (["init", "-q"], ["add", "a.txt"], ["commit", "-q", "-m", "a"]):
        subprocess.run([*git, *command], cwd=tmp_path, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert bench.tree_commit(tmp_path) == {"commit": head, "dirty": False}
    (tmp_path / "b.txt").write_text("untracked: not a change of the tree measured\n")
    assert bench.tree_commit(tmp_path) == {"commit": head, "dirty": False}
    (tmp_path / "a.txt").write_text("b\n")
    assert bench.tree_commit(tmp_path) == {"commit": head, "dirty": True}
