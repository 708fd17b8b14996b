"""Outbound HTTP: the one SSRF-checked client (outbound.py) over httpx."""
