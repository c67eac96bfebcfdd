"""Array kernels of the batched env (``vector.array_env``): per variant, its state as arrays over N games
and its rules, legal masks and observations as functions numba compiles."""
