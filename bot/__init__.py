"""Urbanist's bot: the transport-agnostic service, its store, and the front ends."""
