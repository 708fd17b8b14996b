"""Capacity tools: back-of-the-envelope estimate and a push/pull/hybrid fan-out simulation.

Everything here is pure arithmetic over plain values and needs no server. The only I/O
is files a command names: an assumptions TOML (`estimate.load_assumptions`), an edge
CSV (`graph.read_graph_csv` / `write_graph_csv`) and the `--plot` PNG
(`simulate.plot_simulation`). The CLI in `feedloom.cli.capacity` only parses arguments
and renders what these modules return; loading a graph into a store is a use case,
`feedloom.write.import_graph`.
"""
