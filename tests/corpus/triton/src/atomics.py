"""Triton's atomic operations over every memory order and scope: tl.atomic_add / max / min / and / or / xor / xchg
/ cas (tensor, masked and unmasked, and scalar forms; the result used or not), tl.atomic_load / atomic_store /
atomic_poll, and the synchronisation patterns real kernels build from them (spin locks, a release/acquire flag
hand-off, "last program finishes the reduction" tickets)."""
import triton
import triton.language as tl


@triton.jit
def _rmw(ptr, val, mask, OP: tl.constexpr, SEM: tl.constexpr, SCOPE: tl.constexpr):
    if OP == "add":
        r = tl.atomic_add(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "max":
        r = tl.atomic_max(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "min":
        r = tl.atomic_min(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "and":
        r = tl.atomic_and(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "or":
        r = tl.atomic_or(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    elif OP == "xor":
        r = tl.atomic_xor(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    else:
        tl.static_assert(OP == "xchg")
        r = tl.atomic_xchg(ptr, val, mask=mask, sem=SEM, scope=SCOPE)
    return r


@triton.jit
def atomic_rmw_kernel(ptr, val_ptr, out_ptr, n, OP: tl.constexpr, SCOPE: tl.constexpr, USE_RESULT: tl.constexpr,
                      BLOCK: tl.constexpr):
    # one operation at one scope under each memory order, as a masked tensor, an unmasked tensor and a scalar
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(val_ptr + offs, mask=mask, other=0)
    s = tl.load(val_ptr + pid)
    r0 = _rmw(ptr + offs, v, mask, OP, "relaxed", SCOPE)
    r1 = _rmw(ptr + offs, v, None, OP, "acquire", SCOPE)
    r2 = _rmw(ptr + offs, v, mask, OP, "release", SCOPE)
    r3 = _rmw(ptr + offs, v, mask, OP, "acq_rel", SCOPE)
    r4 = _rmw(ptr + n + pid, s, None, OP, "relaxed", SCOPE)
    r5 = _rmw(ptr + n + pid, s, None, OP, "acq_rel", SCOPE)
    if USE_RESULT:
        tl.store(out_ptr + offs, r0 + r1, mask=mask)
        tl.store(out_ptr + n + offs, r2 + r3, mask=mask)
        tl.store(out_ptr + 2 * n + pid, r4 + r5)


@triton.jit
def atomic_cas_kernel(ptr, cmp_ptr, val_ptr, out_ptr, n, SCOPE: tl.constexpr, BLOCK: tl.constexpr):
    # compare-and-swap under each memory order: tensor and scalar
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    c = tl.load(cmp_ptr + offs)
    v = tl.load(val_ptr + offs)
    r0 = tl.atomic_cas(ptr + offs, c, v, sem="relaxed", scope=SCOPE)
    r1 = tl.atomic_cas(ptr + offs, c, v, sem="acquire", scope=SCOPE)
    r2 = tl.atomic_cas(ptr + offs, c, v, sem="release", scope=SCOPE)
    r3 = tl.atomic_cas(ptr + offs, c, v, sem="acq_rel", scope=SCOPE)
    cs = tl.load(cmp_ptr + pid)
    vs = tl.load(val_ptr + pid)
    r4 = tl.atomic_cas(ptr + n + pid, cs, vs, sem="acq_rel", scope=SCOPE)
    tl.store(out_ptr + offs, r0)
    tl.store(out_ptr + n + offs, r1)
    tl.store(out_ptr + 2 * n + offs, r2)
    tl.store(out_ptr + 3 * n + offs, r3)
    tl.store(out_ptr + 4 * n + pid, r4)


@triton.jit
def atomic_fadd_kernel(ptr, val_ptr, out_ptr, n, SEM: tl.constexpr, SCOPE: tl.constexpr, USE_RESULT: tl.constexpr,
                       BLOCK: tl.constexpr):
    # floating-point atomic add (packed f16x2 / bf16x2 forms where the layout allows)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(val_ptr + offs, mask=mask, other=0)
    r = tl.atomic_add(ptr + offs, v, mask=mask, sem=SEM, scope=SCOPE)
    r2 = tl.atomic_add(ptr + (offs % 64), v, mask=mask, sem=SEM, scope=SCOPE)
    if USE_RESULT:
        tl.store(out_ptr + offs, r + r2, mask=mask)


@triton.jit
def atomic_load_store_kernel(flags_ptr, data_ptr, out_ptr, n, SCOPE: tl.constexpr, BLOCK: tl.constexpr):
    # tl.atomic_load (relaxed / acquire) and tl.atomic_store (relaxed / release), scalar and tensor
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.atomic_load(data_ptr + offs, mask=mask, sem="relaxed", scope=SCOPE)
    b = tl.atomic_load(data_ptr + offs, mask=mask, sem="acquire", scope=SCOPE)
    f = tl.atomic_load(flags_ptr + pid, sem="acquire", scope=SCOPE)
    tl.atomic_store(out_ptr + offs, a + b + f, mask=mask, sem="relaxed", scope=SCOPE)
    tl.atomic_store(flags_ptr + pid + 1, f + 1, sem="release", scope=SCOPE)


@triton.jit
def flag_handoff_kernel(data_ptr, flag_ptr, out_ptr, n, SCOPE: tl.constexpr, BLOCK: tl.constexpr):
    # program i waits for program i-1's flag (acquire poll), adds its tile, publishes its own flag (release)
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(data_ptr + pid * BLOCK + offs)
    if pid > 0:
        tl.atomic_poll(flag_ptr + pid - 1, 1, sem="acquire", scope=SCOPE)
        x += tl.load(out_ptr + (pid - 1) * BLOCK + offs)
    tl.store(out_ptr + pid * BLOCK + offs, x)
    tl.debug_barrier()
    tl.atomic_xchg(flag_ptr + pid, 1, sem="release", scope=SCOPE)


@triton.jit
def spin_lock_accumulate_kernel(lock_ptr, acc_ptr, x_ptr, n, SCOPE: tl.constexpr, BLOCK: tl.constexpr):
    # critical section: acquire a lock with a CAS loop, read-modify-write a tile, release with an exchange
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + pid * n + offs, mask=mask, other=0.0)
    while tl.atomic_cas(lock_ptr, 0, 1, sem="acquire", scope=SCOPE) != 0:
        pass
    acc = tl.load(acc_ptr + offs, mask=mask, other=0.0)
    tl.store(acc_ptr + offs, acc + x, mask=mask)
    tl.atomic_xchg(lock_ptr, 0, sem="release", scope=SCOPE)


@triton.jit
def last_block_reduce_kernel(x_ptr, partial_ptr, counter_ptr, out_ptr, n, BLOCK: tl.constexpr,
                             MAX_PROGRAMS: tl.constexpr):
    # every program writes a partial sum; the program that takes the last ticket sums the partials and resets
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(partial_ptr + pid, tl.sum(x, axis=0))
    ticket = tl.atomic_add(counter_ptr, 1, sem="acq_rel", scope="gpu")
    if ticket == nprog - 1:
        p = tl.arange(0, MAX_PROGRAMS)
        parts = tl.load(partial_ptr + p, mask=p < nprog, other=0.0)
        tl.store(out_ptr, tl.sum(parts, axis=0))
        tl.atomic_xchg(counter_ptr, 0, sem="relaxed")


@triton.jit
def embedding_backward_kernel(grad_out_ptr, idx_ptr, grad_weight_ptr, n_tokens, dim, BLOCK_T: tl.constexpr,
                              BLOCK_D: tl.constexpr):
    # scatter-add of gradient rows into the embedding table (duplicate indices collide)
    pid_t = tl.program_id(0)
    pid_d = tl.program_id(1)
    toks = pid_t * BLOCK_T + tl.arange(0, BLOCK_T)
    ds = pid_d * BLOCK_D + tl.arange(0, BLOCK_D)
    tmask = toks < n_tokens
    dmask = ds < dim
    idx = tl.load(idx_ptr + toks, mask=tmask, other=0)
    g = tl.load(grad_out_ptr + toks[:, None] * dim + ds[None, :], mask=tmask[:, None] & dmask[None, :], other=0.0)
    tl.atomic_add(grad_weight_ptr + idx[:, None] * dim + ds[None, :], g, mask=tmask[:, None] & dmask[None, :])
