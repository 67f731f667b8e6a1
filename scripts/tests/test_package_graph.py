"""The check that every Swift import is declared in the manifest."""

from pathlib import Path

from thumbs_tools.package_graph import dependency_name, imports_of, targets_of, undeclared

SOURCE = """// import Commented
import Foundation
@testable import ThumbsStore
@preconcurrency import NIOCore
public import SystemPackage
internal import struct Logging.Logger
import CVips.Shim
/*
import InsideABlockComment
*/
#if canImport(Glibc)
    import Glibc
#endif
let text = "import NotAnImport"
"""


def test_imports_are_read_with_their_attributes_kinds_and_lines(tmp_path: Path) -> None:
    found = imports_of(SOURCE, tmp_path / "A.swift")
    assert [(i.module, i.line) for i in found] == [
        ("Foundation", 2),
        ("ThumbsStore", 3),
        ("NIOCore", 4),
        ("SystemPackage", 5),
        ("Logging", 6),
        ("CVips", 7),
        ("Glibc", 12),
    ]


def test_dependencies_name_targets_and_products() -> None:
    assert dependency_name({"byName": ["ThumbsStore", None]}) == "ThumbsStore"
    assert dependency_name({"target": ["CVips", None]}) == "CVips"
    assert dependency_name({"product": ["Logging", "swift-log", None, None]}) == "Logging"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def manifest() -> dict[str, object]:
    return {
        "targets": [
            {"name": "CLMDB", "type": "system", "dependencies": []},
            {
                "name": "ThumbsStore",
                "type": "regular",
                "dependencies": [
                    {"byName": ["CLMDB", None]},
                    {"product": ["SystemPackage", "swift-system", None, None]},
                ],
                "exclude": ["Generated"],
            },
            {"name": "ThumbsStoreTests", "type": "test", "dependencies": [{"byName": ["ThumbsStore", None]}]},
            {"name": "store-worker", "type": "executable", "path": "Tests/StoreWorker", "dependencies": []},
        ]
    }


def test_targets_find_their_swift_files_where_swiftpm_does(tmp_path: Path) -> None:
    write(tmp_path / "Sources/ThumbsStore/Store.swift", "import CLMDB\n")
    write(tmp_path / "Sources/ThumbsStore/Generated/Old.swift", "import Gone\n")
    write(tmp_path / "Sources/ThumbsStore/shim.c", "#include <lmdb.h>\n")
    write(tmp_path / "Tests/ThumbsStoreTests/StoreTests.swift", "import Testing\n")
    write(tmp_path / "Tests/StoreWorker/main.swift", "import ThumbsStore\n")
    targets = {t.name: t for t in targets_of(manifest(), tmp_path)}
    assert set(targets) == {"ThumbsStore", "ThumbsStoreTests", "store-worker"}  # not the system target
    assert targets["ThumbsStore"].sources == (tmp_path / "Sources/ThumbsStore/Store.swift",)
    assert targets["ThumbsStore"].declared == {"CLMDB", "SystemPackage"}
    assert targets["store-worker"].sources == (tmp_path / "Tests/StoreWorker/main.swift",)


def test_an_import_neither_declared_own_nor_the_toolchain_s_is_reported(tmp_path: Path) -> None:
    write(tmp_path / "Sources/ThumbsStore/Store.swift", "import Foundation\nimport CLMDB\nimport SystemPackage\n")
    write(tmp_path / "Sources/ThumbsStore/Journal.swift", "import Synchronization\nimport ThumbsImaging\n")
    write(tmp_path / "Tests/ThumbsStoreTests/StoreTests.swift", "import Testing\n@testable import ThumbsStore\n")
    write(tmp_path / "Tests/StoreWorker/main.swift", "import ThumbsStore\n")
    problems = undeclared(targets_of(manifest(), tmp_path))
    assert [str(p) for p in problems] == [
        f"ThumbsStore imports ThumbsImaging without declaring it ({tmp_path}/Sources/ThumbsStore/Journal.swift:2)",
        f"store-worker imports ThumbsStore without declaring it ({tmp_path}/Tests/StoreWorker/main.swift:1)",
    ]
