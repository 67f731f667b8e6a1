"""The mutation sweep: mutated media files of every format through the real `thumbs` command.

scripts/sweep is its entry point; `formats` finds the structure of each format, `mutate` edits
it (deterministically from a seed number), `seeds` makes the files mutated, `run` runs them
through `thumbs warm`, `render` and `get` and judges what happened.
"""
