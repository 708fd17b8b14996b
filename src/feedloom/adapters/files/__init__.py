"""Adapters over the local file system."""
