#!/usr/bin/env python3
"""The CI examples in ci/examples/ parse (Debian's python3-yaml) and have the
shape docs/sharding.md describes: a GitHub Actions workflow
with a 4-way matrix and a GitLab CI file with `parallel: 4`, each running the
deep audit sharded and merging the reports (and the stores) in a final job
that comes after the shards; and every attnprop command in them is a command
docs/sharding.md documents, verbatim.

    examples_test.py docs/sharding.md ci/examples
"""
import pathlib
import re
import sys

import yaml

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def attnprop_commands(script_lines):
    """The attnprop command lines of a script, without a trailing `|| ...`."""
    out = []
    for block in script_lines:
        for line in str(block).splitlines():
            line = line.strip()
            if line.startswith("build/release/tools/attnprop "):
                out.append(re.sub(r"\s*\|\|.*$", "", line))
    return out


def readme_sharding_commands(readme):
    """The command lines of the code blocks of the Sharding page (docs/sharding.md)."""
    text = readme.read_text()
    m = re.search(r"^##? Sharding\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    if not m:
        failures.append("docs/sharding.md has no '# Sharding' section")
        return set()
    cmds = set()
    for line in m.group(1).splitlines():
        if line.startswith("    build/release/tools/attnprop "):
            cmds.add(re.sub(r"\s{2,}# .*$", "", line.strip()))
    return cmds


def main():
    readme, examples = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    documented = readme_sharding_commands(readme)
    check(any("--shard $I/4" in c for c in documented), "docs/sharding.md's recipe has no `--shard $I/4` line")
    check(any(" merge --out " in c for c in documented), "docs/sharding.md's recipe has no `attnprop merge` line")

    # GitHub Actions: a matrix of 4 shards, then a job that needs them.
    gh = yaml.safe_load((examples / "github-actions.yml").read_text())
    jobs = gh.get("jobs", {})
    shard_jobs = [j for j in jobs.values() if j.get("strategy", {}).get("matrix", {}).get("shard")]
    check(len(shard_jobs) == 1, "github-actions.yml: no single job with a `shard` matrix")
    gh_shard_cmds, gh_merge_cmds = [], []
    if shard_jobs:
        shards = shard_jobs[0]["strategy"]["matrix"]["shard"]
        check(shards == [0, 1, 2, 3], f"github-actions.yml: the matrix is {shards}, not [0, 1, 2, 3]")
        check(shard_jobs[0].get("env", {}).get("I") == "${{ matrix.shard }}",
              "github-actions.yml: the shard job does not set I from the matrix")
        gh_shard_cmds = attnprop_commands(s.get("run", "") for s in shard_jobs[0].get("steps", []))
    shard_name = next((n for n, j in jobs.items() if j in shard_jobs), None)
    merge_jobs = [j for j in jobs.values() if shard_name and shard_name in ([j.get("needs")] if isinstance(j.get("needs"), str) else j.get("needs", []))]
    check(len(merge_jobs) == 1, "github-actions.yml: no job that needs the shard job")
    if merge_jobs:
        gh_merge_cmds = attnprop_commands(s.get("run", "") for s in merge_jobs[0].get("steps", []))

    # GitLab CI: a job with parallel: 4, then one in a later stage that needs it.
    gl = yaml.safe_load((examples / "gitlab-ci.yml").read_text())
    stages = gl.get("stages", [])
    gl_jobs = {n: j for n, j in gl.items() if isinstance(j, dict) and "script" in j}
    par = [n for n, j in gl_jobs.items() if j.get("parallel") == 4]
    check(len(par) == 1, "gitlab-ci.yml: no single job with `parallel: 4`")
    gl_shard_cmds, gl_merge_cmds = [], []
    if par:
        gl_shard_cmds = attnprop_commands(gl_jobs[par[0]]["script"])
        check("I=$((CI_NODE_INDEX - 1))" in gl_jobs[par[0]]["script"],
              "gitlab-ci.yml: the shard job does not set I from CI_NODE_INDEX (1-based)")
        after = [n for n, j in gl_jobs.items()
                 if any((d.get("job") if isinstance(d, dict) else d) == par[0] for d in j.get("needs", []))]
        check(len(after) == 1, "gitlab-ci.yml: no job that needs the parallel job")
        if after:
            m = gl_jobs[after[0]]
            check(stages.index(m["stage"]) > stages.index(gl_jobs[par[0]]["stage"]),
                  "gitlab-ci.yml: the merge job is not in a later stage")
            gl_merge_cmds = attnprop_commands(m["script"])

    for name, cmds, kind in [("github-actions.yml", gh_shard_cmds, "shard"), ("github-actions.yml", gh_merge_cmds, "merge"),
                             ("gitlab-ci.yml", gl_shard_cmds, "shard"), ("gitlab-ci.yml", gl_merge_cmds, "merge")]:
        check(cmds, f"{name}: the {kind} job runs no attnprop command")
        for c in cmds:
            check(c in documented, f"{name}: `{c}` is not a command of docs/sharding.md")
        if kind == "shard":
            check(any(" audit --deep --shard $I/4 " in c for c in cmds), f"{name}: the shard job runs no sharded deep audit")
        else:
            check(any(" merge --out " in c for c in cmds), f"{name}: the final job merges no reports")
            check(any(" store merge --into " in c for c in cmds), f"{name}: the final job merges no stores")
    check(set(gh_shard_cmds + gh_merge_cmds) == set(gl_shard_cmds + gl_merge_cmds),
          "the two examples run different attnprop commands")

    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("ci/examples: both parse; 4 shards and a final merge job each; attnprop commands as documented:")
        for c in sorted(set(gh_shard_cmds + gh_merge_cmds)):
            print("  ", c)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
