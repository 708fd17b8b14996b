"""`feedloom bench`: end-to-end load benchmarks (fan-out, and a mixed read/write load).

Each run starts its own throwaway store and server (or targets a running one on
127.0.0.1), drives it with bounded request loops, records latencies in HDR histograms
and prints a Markdown report; `--out DIR` adds JSON and a PNG latency plot.
"""
