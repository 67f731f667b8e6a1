"""The check that every Swift import is declared in the manifest."""

from pathlib import Path

from thumbs_tools.package_graph import codecs_reached, dependency_name, imports_of, reachable, targets_of, undeclared

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


def _target(name: str, *dependencies: str) -> dict[str, object]:
    return {"name": name, "type": "regular", "dependencies": [{"byName": [d, None]} for d in dependencies]}


CODEC_MANIFEST = {
    "targets": [
        _target("ThumbsCore", "ThumbsSupport"),
        _target("ThumbsSupport"),
        _target("CVips"),
        _target("ThumbsImaging", "ThumbsCore", "CVips"),
        _target("ThumbsStore", "ThumbsCore"),
        _target("ThumbsStoreTests", "ThumbsStore", "Helpers"),
        _target("Helpers", "ThumbsImaging"),
        _target("thumbs-store-worker", "ThumbsStore"),
    ]
}


def test_what_a_target_reaches_goes_through_other_targets() -> None:
    assert reachable(CODEC_MANIFEST, "ThumbsStoreTests") == {
        "ThumbsStore",
        "ThumbsCore",
        "ThumbsSupport",
        "Helpers",
        "ThumbsImaging",
        "CVips",
    }


def test_a_codec_reached_through_a_helper_is_found_and_a_clean_target_is_not() -> None:
    assert codecs_reached(CODEC_MANIFEST) == {"ThumbsStoreTests": {"ThumbsImaging", "CVips"}}
