"""Capacity tools: back-of-the-envelope estimate and a push/pull/hybrid fan-out simulation.

Everything here is pure arithmetic over plain values and needs no server; the CLI in
`feedloom.cli.capacity` only parses arguments and renders what these modules return.
"""
