"""isel subpackage of pylower."""
