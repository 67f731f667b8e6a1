#!/bin/bash
# One shard of a sharded warm, as a task of a Slurm job array or a pod of a Kubernetes Indexed
# Job (docs/SCALING.md). The shard's cache is written on node-local scratch (LMDB wants a local
# file system) and kept, when the warm ends, on shared storage, where `thumbs merge` reads it.
#
# Environment:
#   LIBRARY      the library's folder, at the same path on every node (asset ids depend on it)
#   SHARDS       how many shards (default: the array's task count, SLURM_ARRAY_TASK_COUNT)
#   SHARDS_DIR   shared folder where each shard's cache is kept, as SHARDS_DIR/thumbs-K
#   SCRATCH      node-local folder for the cache being written (default: $TMPDIR, else /tmp)
#   THUMBS       the thumbs program (default: thumbs on the PATH)
# The shard's index comes from JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm).
#
# Run again (a requeued task, a replaced pod), it resumes: from its scratch cache when it is
# still there (same node), else from the copy kept by an earlier run, else from nothing.
set -uo pipefail
: "${LIBRARY:?LIBRARY names the library folder}" "${SHARDS_DIR:?SHARDS_DIR names the shared folder for shard caches}"
THUMBS="${THUMBS:-thumbs}"
SHARDS="${SHARDS:-${SLURM_ARRAY_TASK_COUNT:?SHARDS is the number of shards}}"
if [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    index="$JOB_COMPLETION_INDEX"
else
    # Counted from the array's first task, whatever its numbering (--array=1-4, --array=0-15:4).
    index=$(( (SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-0}) / ${SLURM_ARRAY_TASK_STEP:-1} ))
fi
scratch="${SCRATCH:-${TMPDIR:-/tmp}}/thumbs-shard-$index-of-$SHARDS"
kept="$SHARDS_DIR/thumbs-$index"
mkdir -p "$scratch" "$kept" || exit 1

if [ ! -s "$scratch/data.mdb" ] && [ -s "$kept/data.mdb" ]; then
    cp "$kept/data.mdb" "$scratch/data.mdb" || exit 1
fi
"$THUMBS" warm --shard "$index/$SHARDS" --cache "$scratch" --json "$LIBRARY" > "$SHARDS_DIR/thumbs-$index.jsonl"
status=$?
# 1: some files could not be read; each is reported and remembered, and the shard is done.
[ $status -le 1 ] || exit $status
# Kept in one rename, so that the merge never reads a half-copied file.
cp "$scratch/data.mdb" "$kept/data.mdb.copying" && mv -f "$kept/data.mdb.copying" "$kept/data.mdb" || exit 1
rm -rf "$scratch"
