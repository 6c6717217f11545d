"""Pure, deterministic rules engines for Urbanist's games."""
