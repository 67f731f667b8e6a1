#!/bin/bash
# One shard of a sharded warm, as a task of a Slurm job array or a pod of a Kubernetes Indexed
# Job (docs/SCALING.md). The shard's cache is written on node-local scratch (LMDB wants a local
# file system) and kept, when the warm ends, on shared storage, where `thumbs merge` reads it.
#
# Environment:
#   LIBRARY      the library's folder, at the same path on every node (asset ids depend on it)
#   SHARDS       how many shards
#   SHARDS_DIR   shared folder where each shard's cache is kept, as SHARDS_DIR/thumbs-K
#   SCRATCH      node-local folder for the cache being written (default: $TMPDIR, else /tmp)
#   THUMBS       the thumbs program (default: thumbs on the PATH)
# The shard's index is JOB_COMPLETION_INDEX (Kubernetes) or SLURM_ARRAY_TASK_ID (Slurm) as it is:
# the array is numbered 0 to SHARDS-1, and a rerun of some of its tasks keeps their numbers
# (`sbatch --array=5,17` warms shards 5 and 17 again).
#
# Run again (a requeued task, a replaced pod), it resumes: from its scratch cache when it is
# still there (same node), else from the copy kept by an earlier run, else from nothing.
set -uo pipefail
: "${LIBRARY:?LIBRARY names the library folder}" "${SHARDS_DIR:?SHARDS_DIR names the shared folder for shard caches}"
THUMBS="${THUMBS:-thumbs}"
: "${SHARDS:?SHARDS is the number of shards}"
index="${JOB_COMPLETION_INDEX:-${SLURM_ARRAY_TASK_ID:?neither JOB_COMPLETION_INDEX nor SLURM_ARRAY_TASK_ID is set}}"
if ! [ "$index" -ge 0 ] 2>/dev/null || [ "$index" -ge "$SHARDS" ]; then
    echo "warm-shard: task $index is not one of the shards 0 to $((SHARDS - 1))" >&2
    exit 2
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
