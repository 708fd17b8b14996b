"""No import cycles among feedloom's modules, not even lazy ones.

The rings themselves are import-linter contracts (pyproject `[tool.importlinter]`, run by
`lint-imports` in scripts/check and scripts/test). Its acyclic_siblings contract sees
cycles between siblings, but not one that runs through a package's own `__init__`; this
test sees every cycle. Imports inside functions and under TYPE_CHECKING count: an import
deferred to call time still ties the two modules into one.
"""

from __future__ import annotations

import grimp


def test_no_feedloom_module_takes_part_in_an_import_cycle() -> None:
    graph = grimp.build_graph("feedloom", cache_dir=None)
    cycles = [_one_cycle(graph, sorted(group)) for group in _tangles(graph)]
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(cycle) for cycle in cycles)


def _tangles(graph: grimp.ImportGraph) -> list[set[str]]:
    """Groups of modules that all reach each other (strongly connected, more than one)."""
    remaining, tangles = set(graph.modules), []
    while remaining:
        module = remaining.pop()
        imports = graph.find_upstream_modules(module)  # what it imports, even indirectly
        importers = graph.find_downstream_modules(module)  # what imports it, even indirectly
        tangle = {module} | (imports & importers)
        remaining -= tangle
        if len(tangle) > 1:
            tangles.append(tangle)
    return tangles


def _one_cycle(graph: grimp.ImportGraph, tangle: list[str]) -> list[str]:
    """A shortest cycle through the tangle's first module, to name in the failure."""
    start = tangle[0]
    paths = [
        graph.find_shortest_chain(importer=imported, imported=start)
        for imported in graph.find_modules_directly_imported_by(start)
        if imported in tangle
    ]
    shortest = min((path for path in paths if path is not None), key=len)
    return [start, *shortest]
