"""lowering subpackage of pylower."""
