"""Format-aware mutations, each a deterministic function of the file and a seed number.

`apply(data, name, number)` returns the mutated bytes and a description of the edit (`core`
says how); each module of this package registers the mutations of one family of formats.
"""

# The order of the imports is the order of registration, which `choose` draws from: it must
# stay as it is for a run seed to make the same files again.
from . import any_file, bmff, png, jpeg, tiff, ebml, gif, riff  # noqa: F401  # isort: skip
from .any_file import extension
from .core import MUTATIONS, apply, choose

__all__ = ["MUTATIONS", "apply", "choose", "extension"]
