"""The Triton corpus configurations: which kernel of which source is compiled how (read by
tools/corpus_triton.py; plain data, importing it needs no Triton).

Each entry: src (module in this folder), kernel, sig (Triton type of every runtime argument), const (constexpr
arguments; like Triton's launcher, integer arguments equal to 1 -- unit strides -- are passed as constexprs),
cc (80 -> sm_80, 90 -> sm_90a, 100 -> sm_100a), num_warps, num_stages, optional tag (names the variant in the
file name), div16 (integer arguments the launcher would see as multiples of 16) and options (further
CUDAOptions, e.g. debug). Output: tests/corpus/triton/<src>-<kernel>[-<tag>]-sm<cc>-w<num_warps>s<num_stages>.ptx
"""


def C(src, kernel, sig, const=None, *, cc, w, s, tag="", div16=(), options=None):
    d = {"src": src, "kernel": kernel, "sig": dict(sig), "const": dict(const or {}), "cc": cc, "num_warps": w,
         "num_stages": s}
    if tag:
        d["tag"] = tag
    if div16:
        d["div16"] = list(div16)
    if options:
        d["options"] = dict(options)
    return d


def ptrs(names, ty):
    return {n: f"*{ty}" for n in names.split()}


def ints(names, ty="i32"):
    return {n: ty for n in names.split()}


CONFIGS = []
add = CONFIGS.append

# ---------------------------------------------------------------- vector_add.py
VA = "vector_add"
for ty, block, cc, w, tag, div in [("fp32", 1024, 80, 4, "fp32", ()), ("fp16", 2048, 90, 8, "fp16", ("n_elements",)),
                                   ("bf16", 256, 100, 1, "bf16", ()), ("fp32", 512, 100, 2, "fp32", ("n_elements",))]:
    add(C(VA, "add_kernel", {**ptrs("x_ptr y_ptr output_ptr", ty), "n_elements": "i32"}, {"BLOCK_SIZE": block},
          cc=cc, w=w, s=1, tag=tag, div16=div))
for cc, w, s in [(80, 4, 3), (90, 4, 4), (100, 2, 2)]:
    add(C(VA, "add_grid_stride_kernel", {**ptrs("x_ptr y_ptr output_ptr", "fp32"), "n_elements": "i32"},
          {"BLOCK_SIZE": 1024, "NUM_STAGES": s}, cc=cc, w=w, s=s, div16=("n_elements",)))
for cc, w in [(80, 2), (100, 4)]:
    add(C(VA, "axpby_cast_kernel", {**ptrs("x_ptr y_ptr", "fp16"), "out_ptr": "*bf16", "alpha": "fp32",
                                    "beta": "fp32", "n_elements": "i32"}, {"BLOCK_SIZE": 1024}, cc=cc, w=w, s=1))
add(C(VA, "gelu_and_mul_kernel", {**ptrs("x_ptr out_ptr", "bf16"), **ints("n_cols stride_row")}, {"BLOCK_SIZE": 1024},
      cc=90, w=4, s=1, div16=("n_cols", "stride_row")))

# ---------------------------------------------------------------- softmax.py
SM = "softmax"
for ty, block, cc, w, st in [("fp32", 1024, 80, 4, 4), ("fp16", 4096, 90, 8, 2), ("fp32", 256, 100, 2, 3)]:
    add(C(SM, "softmax_kernel", {**ptrs("output_ptr input_ptr", ty), **ints("input_row_stride output_row_stride n_rows n_cols")},
          {"BLOCK_SIZE": block, "num_stages": st}, cc=cc, w=w, s=st, tag=ty, div16=("input_row_stride", "output_row_stride")))
for cc, w, s in [(80, 4, 2), (100, 8, 3)]:
    add(C(SM, "online_softmax_kernel", {**ptrs("output_ptr input_ptr", "fp16"), **ints("row_stride n_cols")},
          {"BLOCK_SIZE": 1024}, cc=cc, w=w, s=s))
add(C(SM, "log_softmax_backward_kernel", {**ptrs("grad_in_ptr grad_out_ptr out_ptr", "fp32"), **ints("row_stride n_cols")},
      {"BLOCK_SIZE": 2048}, cc=90, w=8, s=1, div16=("row_stride",)))

# ---------------------------------------------------------------- matmul.py
MM = "matmul"
MM_SIG = ints("M N K stride_am stride_bk stride_cm")
MM_UNIT = {"stride_ak": 1, "stride_bn": 1, "stride_cn": 1}
MM_DIV = ("M", "N", "K", "stride_am", "stride_bk", "stride_cm")
for ty, cty, bm, bn, bk, act, cc, w, s in [
        ("fp16", "fp16", 128, 256, 64, "", 80, 8, 3),
        ("fp16", "fp16", 64, 64, 32, "leaky_relu", 80, 4, 4),
        ("fp32", "fp32", 128, 64, 32, "", 80, 4, 2),          # tf32
        ("fp16", "fp16", 32, 32, 32, "", 80, 1, 1),
        ("fp16", "fp16", 128, 256, 64, "", 90, 8, 3),
        ("bf16", "bf16", 64, 128, 64, "leaky_relu", 90, 4, 2),
        ("fp16", "fp32", 32, 64, 32, "", 90, 2, 2),
        ("fp16", "fp16", 128, 128, 64, "", 100, 8, 4),
        ("bf16", "fp32", 128, 64, 64, "leaky_relu", 100, 4, 3)]:
    add(C(MM, "matmul_kernel", {**ptrs("a_ptr b_ptr", ty), "c_ptr": f"*{cty}", **MM_SIG},
          {"BLOCK_SIZE_M": bm, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": bk, "GROUP_SIZE_M": 8, "ACTIVATION": act, **MM_UNIT},
          cc=cc, w=w, s=s, tag=f"{ty}_{bm}x{bn}x{bk}" + ("_relu" if act else ""), div16=MM_DIV))
for cc, sms, bn, w, s in [(80, 108, 128, 8, 3), (90, 132, 256, 8, 3), (100, 148, 128, 4, 4)]:
    add(C(MM, "matmul_persistent_kernel", {**ptrs("a_ptr b_ptr c_ptr", "fp16"), **MM_SIG},
          {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "NUM_SMS": sms, **MM_UNIT},
          cc=cc, w=w, s=s, div16=MM_DIV))


def tma_sig(ty, bm, bn, bk, cty=None):
    cty = cty or ty
    return {"a_desc": f"tensordesc<{ty}[{bm},{bk}]>", "b_desc": f"tensordesc<{ty}[{bn},{bk}]>",
            "c_desc": f"tensordesc<{cty}[{bm},{bn}]>", **ints("M N K")}


for ty, bn, ws, cc, w, s in [("fp16", 256, False, 90, 8, 3), ("fp16", 128, True, 90, 8, 3),
                             ("fp16", 256, True, 100, 4, 4), ("bf16", 128, False, 100, 8, 3)]:
    add(C(MM, "matmul_tma_kernel", tma_sig(ty, 128, bn, 64),
          {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "WARP_SPECIALIZE": ws},
          cc=cc, w=w, s=s, tag=f"{ty}_bn{bn}" + ("_ws" if ws else ""), div16=("M", "N", "K")))
for sub, ws, cc, w, s, sms in [(False, False, 90, 8, 3, 132), (True, True, 100, 4, 3, 148),
                               (False, False, 100, 8, 4, 148), (True, False, 90, 4, 4, 132)]:
    bn = 128
    add(C(MM, "matmul_tma_persistent_kernel", tma_sig("fp16", 128, bn // 2 if sub else bn, 64) | {
        "b_desc": f"tensordesc<fp16[{bn},64]>"},
        {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": bn, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "EPILOGUE_SUBTILE": sub,
         "NUM_SMS": sms, "WARP_SPECIALIZE": ws},
        cc=cc, w=w, s=s, tag=("subtile" if sub else "full") + ("_ws" if ws else ""), div16=("M", "N", "K")))
for cc, w, s in [(90, 4, 3), (100, 4, 3)]:
    add(C(MM, "matmul_device_descriptor_kernel", {**ptrs("a_ptr b_ptr c_ptr", "fp16"), **ints("M N K")},
          {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8, "NUM_SMS": 132},
          cc=cc, w=w, s=s, div16=("M", "N", "K")))
for cty, sem, cc, w, s in [("fp32", "relaxed", 80, 4, 3), ("fp16", "acq_rel", 90, 4, 2), ("bf16", "release", 100, 8, 3),
                           ("fp32", "acquire", 90, 8, 4)]:
    add(C(MM, "matmul_splitk_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": f"*{cty}", **MM_SIG},
          {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 4, "GROUP_M": 8, "SEM": sem, **MM_UNIT},
          cc=cc, w=w, s=s, tag=f"{cty}_{sem}", div16=MM_DIV))
for cc, w, s, sms in [(80, 4, 2, 108), (90, 4, 3, 132), (100, 8, 4, 148)]:
    add(C(MM, "grouped_matmul_kernel", {**ptrs("group_a_ptrs group_b_ptrs group_c_ptrs", "u64"),
                                        **ptrs("group_gemm_sizes g_lds", "i32"), "group_size": "i32"},
          {"NUM_SM": sms, "BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 32}, cc=cc, w=w, s=s))
for ty, cc, w, s in [("fp16", 80, 4, 3), ("bf16", 90, 4, 4), ("fp16", 100, 8, 2)]:
    add(C(MM, "batched_matmul_descriptor_kernel", {**ptrs("a_ptr b_ptr c_ptr", ty), **ints("B M N K")},
          {"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64}, cc=cc, w=w, s=s, tag=ty, div16=("M", "N", "K")))
for cc, w, s in [(90, 8, 3), (100, 4, 3)]:
    add(C(MM, "matmul_fp8_kernel", {**ptrs("a_ptr b_ptr", "fp8e4nv"), "c_ptr": "*bf16", **ptrs("a_scale_ptr b_scale_ptr", "fp32"),
                                    **MM_SIG},
          {"BLOCK_SIZE_M": 128, "BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 8, **MM_UNIT},
          cc=cc, w=w, s=s, div16=MM_DIV))

# ---------------------------------------------------------------- dropout.py
DR = "dropout"
for cc, w in [(80, 4), (90, 2)]:
    add(C(DR, "dropout_kernel", {**ptrs("x_ptr output_ptr", "fp32"), "x_keep_ptr": "*i1", "n_elements": "i32", "p": "fp32"},
          {"BLOCK_SIZE": 1024}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp32", 80, 4), ("fp16", 100, 8)]:
    add(C(DR, "seeded_dropout_kernel", {**ptrs("x_ptr output_ptr", ty), "n_elements": "i32", "p": "fp32", "seed": "i32"},
          {"BLOCK_SIZE": 1024}, cc=cc, w=w, s=1, tag=ty))
add(C(DR, "dropout_residual_add_kernel", {**ptrs("x_ptr residual_ptr out_ptr", "bf16"), "seed_ptr": "*i64",
                                          **ints("n_rows n_cols"), "p": "fp32"},
      {"BLOCK_SIZE": 2048}, cc=90, w=8, s=1))

# ---------------------------------------------------------------- layer_norm.py
LN = "layer_norm"
for cc, w, s, block in [(80, 8, 1, 1024), (90, 4, 2, 4096), (100, 8, 1, 2048)]:
    add(C(LN, "layer_norm_fwd_fused", {**ptrs("X Y W B", "fp16"), **ptrs("Mean Rstd", "fp32"), **ints("stride N"),
                                       "eps": "fp32"},
          {"BLOCK_SIZE": block}, cc=cc, w=w, s=s, div16=("stride", "N")))
for cc, w, s, gm in [(80, 8, 1, 64), (90, 4, 1, 32), (100, 8, 2, 128)]:
    add(C(LN, "layer_norm_bwd_dx_fused", {**ptrs("DX DY DW DB X W", "fp16"), **ptrs("Mean Rstd", "fp32"), "Lock": "*i32",
                                          **ints("stride N")},
          {"GROUP_SIZE_M": gm, "BLOCK_SIZE_N": 1024}, cc=cc, w=w, s=s, div16=("stride", "N")))
for cc, w, s in [(80, 4, 2), (100, 4, 1)]:
    add(C(LN, "layer_norm_bwd_dwdb", {**ptrs("DW DB FINAL_DW FINAL_DB", "fp32"), **ints("M N")},
          {"BLOCK_SIZE_M": 32, "BLOCK_SIZE_N": 128}, cc=cc, w=w, s=s, div16=("N",)))
for ty, cc, w, block in [("bf16", 90, 4, 4096), ("fp16", 80, 2, 512)]:
    add(C(LN, "rms_norm_fwd_kernel", {**ptrs("X Y W", ty), "Rstd": "*fp32", **ints("stride N"), "eps": "fp32"},
          {"BLOCK_SIZE": block}, cc=cc, w=w, s=1, tag=ty))
for cc, w, s in [(100, 8, 2), (80, 4, 3)]:
    add(C(LN, "rms_norm_bwd_kernel", {**ptrs("DX DY X W", "bf16"), **ptrs("DW_partial Rstd", "fp32"),
                                      **ints("stride N n_rows rows_per_program")},
          {"BLOCK_SIZE": 2048}, cc=cc, w=w, s=s, div16=("stride",)))

# ---------------------------------------------------------------- attention.py
AT = "attention"
ATT_STRIDES = "stride_qz stride_qh stride_qm stride_kz stride_kh stride_kn stride_vz stride_vh stride_vk stride_oz stride_oh stride_om"
for hd, bm, bn, stage, cc, w, s in [(64, 128, 64, 3, 80, 4, 3), (128, 128, 64, 1, 90, 8, 3), (64, 128, 64, 3, 100, 4, 4),
                                    (64, 64, 32, 1, 80, 4, 2)]:
    add(C(AT, "attn_fwd_kernel", {**ptrs("Q K V Out", "fp16"), "sm_scale": "fp32", "M": "*fp32", **ints(ATT_STRIDES),
                                  **ints("Z H")},
          {"N_CTX": 1024, "HEAD_DIM": hd, "BLOCK_M": bm, "BLOCK_N": bn, "STAGE": stage,
           "stride_qk": 1, "stride_kk": 1, "stride_vn": 1, "stride_on": 1},
          cc=cc, w=w, s=s, tag=f"hd{hd}_{'causal' if stage == 3 else 'full'}", div16=tuple(ATT_STRIDES.split())))
for hd, bm, bn, ws, cc, w, s in [(64, 128, 64, False, 90, 4, 3), (128, 128, 128, True, 100, 4, 3),
                                 (128, 128, 128, False, 100, 8, 2)]:
    add(C(AT, "attn_fwd_tma_kernel", {"sm_scale": "fp32", "M": "*fp32", **ints("Z H"),
                                      **ptrs("desc_q desc_k desc_v desc_o", "fp16")},
          {"N_CTX": 1024, "HEAD_DIM": hd, "BLOCK_M": bm, "BLOCK_N": bn, "FP8_OUTPUT": False, "STAGE": 3,
           "warp_specialize": ws},
          cc=cc, w=w, s=s, tag=f"hd{hd}" + ("_ws" if ws else "")))
for cc, w in [(80, 4), (90, 4)]:
    add(C(AT, "attn_bwd_preprocess", {**ptrs("O DO", "fp16"), "Delta": "*fp32", **ints("Z H N_CTX")},
          {"BLOCK_M": 128, "HEAD_DIM": 64}, cc=cc, w=w, s=1, div16=("N_CTX",)))
for causal, cc, w, s in [(True, 80, 4, 4), (True, 90, 4, 3), (False, 100, 4, 4)]:
    add(C(AT, "attn_bwd_kernel", {**ptrs("Q K V DO DQ DK DV", "fp16"), "sm_scale": "fp32", **ptrs("M D", "fp32"),
                                  **ints("stride_z stride_h stride_tok H N_CTX")},
          {"BLOCK_M1": 32, "BLOCK_N1": 128, "BLOCK_M2": 128, "BLOCK_N2": 32, "BLK_SLICE_FACTOR": 2, "HEAD_DIM": 64,
           "CAUSAL": causal, "stride_d": 1},
          cc=cc, w=w, s=s, tag="causal" if causal else "full", div16=("stride_z", "stride_h", "stride_tok", "N_CTX")))

# ---------------------------------------------------------------- reductions.py
RD = "reductions"
for ty, block, cc, w in [("fp32", 1024, 80, 4), ("bf16", 4096, 90, 8), ("fp16", 256, 100, 1)]:
    add(C(RD, "row_stats_kernel", {"x_ptr": f"*{ty}", **ptrs("sum_ptr max_ptr min_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": block}, cc=cc, w=w, s=1, tag=ty))
for bm, bn, cc, w, s in [(64, 64, 80, 4, 3), (32, 128, 100, 8, 2)]:
    add(C(RD, "col_sum_2d_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("M N stride_m")},
          {"BLOCK_M": bm, "BLOCK_N": bn}, cc=cc, w=w, s=s, div16=("stride_m",)))
for ty, block, cc, w in [("fp32", 2048, 90, 8), ("fp16", 512, 80, 2)]:
    add(C(RD, "argmax_kernel", {"x_ptr": f"*{ty}", "idx_ptr": "*i32", "val_ptr": f"*{ty}", **ints("n_cols stride")},
          {"BLOCK": block}, cc=cc, w=w, s=1, tag=ty))
for ty, block, rev, cc, w in [("i32", 1024, False, 80, 4), ("fp32", 4096, True, 90, 8), ("i64", 256, False, 100, 1),
                              ("fp16", 128, True, 80, 2)]:
    add(C(RD, "cumsum_kernel", {**ptrs("x_ptr out_ptr", ty), **ints("n_cols stride")}, {"BLOCK": block, "REVERSE": rev},
          cc=cc, w=w, s=1, tag=ty + ("_rev" if rev else "")))
for block, cc, w, s in [(1024, 90, 4, 3), (128, 80, 1, 2)]:
    add(C(RD, "cumsum_carry_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "n": "i32"}, {"BLOCK": block}, cc=cc, w=w, s=s))
add(C(RD, "cumprod_2d_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "stride": "i32"}, {"BLOCK_M": 16, "BLOCK_N": 64},
      cc=80, w=2, s=1))
for ty, block, rev, cc, w in [("fp32", 2048, False, 100, 4), ("bf16", 512, True, 90, 2)]:
    add(C(RD, "linear_scan_kernel", {**ptrs("a_ptr b_ptr", ty), "h_ptr": "*fp32", **ints("seq_len stride")},
          {"BLOCK": block, "REVERSE": rev}, cc=cc, w=w, s=1, tag=ty + ("_rev" if rev else "")))
add(C(RD, "running_argmax_kernel", {**ptrs("x_ptr v_ptr", "fp32"), "i_ptr": "*i32"}, {"BLOCK_M": 32, "BLOCK_N": 128},
      cc=80, w=4, s=1))
for ty, bm, bn, desc, cc, w in [("fp32", 8, 256, False, 90, 4), ("i32", 4, 1024, True, 80, 8), ("fp16", 16, 64, False, 100, 2)]:
    add(C(RD, "sort_kernel", {**ptrs("x_ptr out_ptr", ty), "stride": "i32"},
          {"BLOCK_M": bm, "BLOCK_N": bn, "DESCENDING": desc}, cc=cc, w=w, s=1, tag=ty + ("_desc" if desc else "")))
add(C(RD, "topk_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "stride": "i32"}, {"BLOCK_M": 16, "BLOCK_N": 256, "K": 8},
      cc=100, w=4, s=1))
for bins, block, cc, w in [(256, 4096, 80, 8), (64, 1024, 90, 4), (32, 512, 100, 2)]:
    add(C(RD, "histogram_kernel", {**ptrs("x_ptr hist_ptr", "i32"), "n": "i32"}, {"NUM_BINS": bins, "BLOCK": block},
          cc=cc, w=w, s=1, tag=f"b{bins}"))
for cc, w in [(80, 4), (100, 8)]:
    add(C(RD, "atomic_histogram_kernel", {"x_ptr": "*fp32", "hist_ptr": "*i32", "n": "i32", **ints("lo hi", "fp32")},
          {"NUM_BINS": 128, "BLOCK": 1024}, cc=cc, w=w, s=1))
for ty, block, cc, w in [("i32", 1024, 90, 4), ("i64", 256, 80, 2)]:
    add(C(RD, "xor_sum_kernel", {**ptrs("x_ptr out_ptr", ty), "n": "i32"}, {"BLOCK": block}, cc=cc, w=w, s=1, tag=ty))

# ---------------------------------------------------------------- atomics.py
AT_ = "atomics"
# (op, scope): element type, cc, num_warps, whether the result is used (an unused result may become a reduction)
RMW = [("add", "gpu", "fp32", 80, 4, True), ("add", "cta", "i32", 90, 2, True), ("add", "sys", "i64", 100, 1, False),
       ("max", "gpu", "i32", 90, 4, True), ("max", "cta", "fp32", 100, 2, True), ("max", "sys", "u32", 80, 8, False),
       ("min", "gpu", "fp32", 100, 4, False), ("min", "cta", "i64", 80, 4, True), ("min", "sys", "fp64", 90, 1, True),
       ("and", "gpu", "i64", 80, 2, True), ("and", "cta", "i32", 100, 4, False), ("and", "sys", "i32", 90, 4, True),
       ("or", "gpu", "i32", 100, 8, False), ("or", "cta", "i64", 90, 1, True), ("or", "sys", "i32", 80, 4, True),
       ("xor", "gpu", "i32", 90, 2, True), ("xor", "cta", "i32", 80, 4, False), ("xor", "sys", "i64", 100, 4, True),
       ("xchg", "gpu", "i32", 80, 4, True), ("xchg", "cta", "fp32", 90, 4, True), ("xchg", "sys", "i64", 100, 2, True),
       ("add", "gpu", "u32", 100, 8, True), ("max", "gpu", "i64", 80, 1, True), ("xchg", "gpu", "fp32", 100, 4, False)]
for op, scope, ty, cc, w, use in RMW:
    add(C(AT_, "atomic_rmw_kernel", {**ptrs("ptr val_ptr out_ptr", ty), "n": "i32"},
          {"OP": op, "SCOPE": scope, "USE_RESULT": use, "BLOCK": 256}, cc=cc, w=w, s=1,
          tag=f"{op}_{scope}_{ty}" + ("" if use else "_noret")))
for scope, ty, cc, w in [("gpu", "i32", 80, 4), ("cta", "i64", 90, 2), ("sys", "i32", 100, 4), ("gpu", "fp32", 90, 1),
                         ("gpu", "i16", 100, 4), ("sys", "i64", 80, 8)]:
    add(C(AT_, "atomic_cas_kernel", {**ptrs("ptr cmp_ptr val_ptr out_ptr", ty), "n": "i32"},
          {"SCOPE": scope, "BLOCK": 128}, cc=cc, w=w, s=1, tag=f"{scope}_{ty}"))
for ty, sem, scope, cc, w, use in [("fp16", "acq_rel", "gpu", 80, 4, True), ("bf16", "relaxed", "gpu", 90, 4, False),
                                   ("bf16", "release", "cta", 80, 2, True), ("fp16", "relaxed", "sys", 100, 8, False),
                                   ("fp32", "acquire", "sys", 90, 4, True), ("fp64", "acq_rel", "gpu", 80, 4, True),
                                   ("bf16", "acq_rel", "cta", 100, 4, True), ("fp16", "release", "gpu", 90, 1, True)]:
    add(C(AT_, "atomic_fadd_kernel", {**ptrs("ptr val_ptr out_ptr", ty), "n": "i32"},
          {"SEM": sem, "SCOPE": scope, "USE_RESULT": use, "BLOCK": 512}, cc=cc, w=w, s=1,
          tag=f"{ty}_{sem}_{scope}" + ("" if use else "_noret")))
for ty, scope, cc, w in [("i32", "gpu", 80, 4), ("i64", "cta", 90, 2), ("fp32", "sys", 100, 4)]:
    add(C(AT_, "atomic_load_store_kernel", {**ptrs("flags_ptr data_ptr out_ptr", ty), "n": "i32"},
          {"SCOPE": scope, "BLOCK": 256}, cc=cc, w=w, s=1, tag=f"{ty}_{scope}"))
for scope, cc, w in [("gpu", 80, 4), ("sys", 90, 2), ("cta", 100, 4)]:
    add(C(AT_, "flag_handoff_kernel", {"data_ptr": "*fp32", "flag_ptr": "*i32", "out_ptr": "*fp32", "n": "i32"},
          {"SCOPE": scope, "BLOCK": 512}, cc=cc, w=w, s=1, tag=scope))
for scope, cc, w in [("gpu", 80, 4), ("sys", 100, 8), ("cta", 90, 1)]:
    add(C(AT_, "spin_lock_accumulate_kernel", {"lock_ptr": "*i32", **ptrs("acc_ptr x_ptr", "fp32"), "n": "i32"},
          {"SCOPE": scope, "BLOCK": 1024}, cc=cc, w=w, s=1, tag=scope))
for cc, w in [(90, 4), (80, 8)]:
    add(C(AT_, "last_block_reduce_kernel", {**ptrs("x_ptr partial_ptr", "fp32"), "counter_ptr": "*i32", "out_ptr": "*fp32",
                                            "n": "i32"},
          {"BLOCK": 2048, "MAX_PROGRAMS": 1024}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp32", 80, 4), ("bf16", 90, 8), ("fp16", 100, 4)]:
    add(C(AT_, "embedding_backward_kernel", {**ptrs("grad_out_ptr grad_weight_ptr", ty), "idx_ptr": "*i64",
                                             **ints("n_tokens dim")},
          {"BLOCK_T": 16, "BLOCK_D": 128}, cc=cc, w=w, s=1, tag=ty, div16=("dim",)))

# ---------------------------------------------------------------- control_flow.py
CF = "control_flow"
for block, cc, w in [(1024, 80, 4), (256, 100, 2)]:
    add(C(CF, "early_exit_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "lengths_ptr": "*i32", "stride": "i32"},
          {"BLOCK": block}, cc=cc, w=w, s=1))
for cc, w in [(80, 1), (90, 4)]:
    add(C(CF, "binary_search_kernel", {**ptrs("sorted_ptr queries_ptr", "fp32"), "out_ptr": "*i32",
                                       **ints("n_sorted n_queries")}, {"BLOCK": 128}, cc=cc, w=w, s=1))
for cc, w in [(80, 2), (100, 4)]:
    add(C(CF, "collatz_steps_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 256, "MAX_ITERS": 1000},
          cc=cc, w=w, s=1))
for block, cc, w in [(512, 80, 4), (2048, 90, 8), (128, 100, 1)]:
    add(C(CF, "debug_barrier_kernel", {**ptrs("x_ptr out_ptr scratch_ptr", "fp32"), "n": "i32"}, {"BLOCK": block},
          cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 2)]:
    add(C(CF, "inline_asm_kernel", {**ptrs("x_ptr y_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(100, 4), (80, 1)]:
    add(C(CF, "inline_asm_multi_output_kernel", {"x_ptr": "*i64", **ptrs("lo_ptr hi_ptr", "i32"), "n": "i32"},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 4)]:
    add(C(CF, "device_assert_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1,
          tag="debug", options={"debug": True}))
for cc, w in [(90, 4), (100, 8)]:
    add(C(CF, "pdl_add_kernel", {**ptrs("x_ptr y_ptr out_ptr", "fp32"), "n": "i32"}, {"BLOCK": 1024, "USE_GDC": True},
          cc=cc, w=w, s=1, options={"launch_pdl": True}))
for cc, w in [(80, 4), (100, 8)]:
    add(C(CF, "divergent_branches_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "kind_ptr": "*i32", "n": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))

# ---------------------------------------------------------------- llm_ops.py
LL = "llm_ops"
for ty, hd, bh, cc, w in [("bf16", 64, 32, 80, 4), ("fp16", 32, 16, 90, 2)]:
    add(C(LL, "rope_kernel", {"q_ptr": f"*{ty}", **ptrs("cos_ptr sin_ptr", "fp32"), **ints("seq_len stride_tok stride_head n_heads")},
          {"HALF_DIM": hd, "BLOCK_H": bh}, cc=cc, w=w, s=1, tag=ty, div16=("stride_tok", "stride_head")))
for ty, block, cc, w, s in [("bf16", 4096, 90, 8, 2), ("fp32", 2048, 80, 4, 3), ("bf16", 8192, 100, 8, 1)]:
    add(C(LL, "cross_entropy_fwd_bwd_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", "loss_ptr": "*fp32",
                                               "stride": "i64", **ints("n_cols ignore_index")},
          {"BLOCK_SIZE": block}, cc=cc, w=w, s=s, tag=ty, div16=("stride",)))
for ty, block, cc, w in [("fp16", 4096, 80, 8), ("bf16", 1024, 100, 4)]:
    add(C(LL, "quant_int8_rowwise_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", "scale_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": block}, cc=cc, w=w, s=1, tag=ty))
add(C(LL, "moe_align_count_kernel", {**ptrs("topk_ids_ptr counts_ptr", "i32"), "numel": "i32"},
      {"NUM_EXPERTS": 64, "BLOCK": 1024}, cc=90, w=4, s=1))
for cc, w in [(90, 4), (80, 8)]:
    add(C(LL, "moe_align_scatter_kernel", {**ptrs("topk_ids_ptr counts_ptr cursor_ptr sorted_ids_ptr expert_ids_ptr", "i32"),
                                           "numel": "i32"},
          {"NUM_EXPERTS": 64, "BLOCK_M": 64, "BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w, s in [(80, 4, 2), (90, 4, 3), (100, 2, 1)]:
    add(C(LL, "paged_decode_attention_kernel", {**ptrs("out_ptr q_ptr k_cache_ptr v_cache_ptr", "fp16"),
                                                **ptrs("block_tables_ptr seq_lens_ptr", "i32"), "scale": "fp32",
                                                **ints("stride_bt stride_kb stride_kt max_blocks")},
          {"HEAD_DIM": 128, "PAGE": 16}, cc=cc, w=w, s=s, div16=("stride_bt", "stride_kb", "stride_kt")))

# ---------------------------------------------------------------- row_ops.py
RO = "row_ops"
for cc, w, blk, ty in [(80, 4, 1024, "fp32"), (90, 8, 2048, "fp16"), (100, 2, 512, "bf16")]:
    add(C(RO, "welford_kernel", {**ptrs("x_ptr mean_ptr var_ptr", ty), **ints("n_cols stride")}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "logsumexp_kernel", {**ptrs("x_ptr out_ptr", ty), **ints("n_cols stride")}, {"BLOCK": blk},
          cc=cc, w=w, s=2, tag=ty))
    add(C(RO, "l2_normalize_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "softmax_bwd_kernel", {**ptrs("dx_ptr dy_ptr y_ptr", ty), **ints("n_cols stride")}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "col_max_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("M N stride")},
          {"BLOCK_M": 64, "BLOCK_N": 32 * w}, cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "cumsum_axis0_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("M N stride")},
          {"BLOCK_M": 32, "BLOCK_N": 16 * w}, cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "running_max_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "compact_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "counter_ptr": "*i32", "n": "i32", "thresh": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "block_max_atomic_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "scatter_add_kernel", {"src_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32", "n": "i32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
    add(C(RO, "sort_rows_desc_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "stride": "i32"},
          {"BLOCK_M": 4, "BLOCK_N": 64}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (100, 2)]:        # BN = 64 * (1 + w // 4): a power of two for these warp counts
    add(C(RO, "gemm_bias_kernel", {**ptrs("a_ptr b_ptr bias_ptr c_ptr", "fp16"),
                                   **ints("M N K stride_am stride_bk stride_cm")},
          {"BM": 64, "BN": 64 * (1 + w // 4), "BK": 32}, cc=cc, w=w, s=3))

# ---------------------------------------------------------------- t27_kernels.py (stop 27 unseen set)
T27 = "t27_kernels"
for cc, w, s, ty, blk in [(80, 4, 2, "fp32", 1024), (90, 8, 3, "bf16", 2048), (100, 4, 1, "fp16", 4096)]:
    add(C(T27, "ce_fwd_bwd_kernel", {**ptrs("logits_ptr dlogits_ptr", ty), "labels_ptr": "*i64", "loss_ptr": "*fp32",
                                     **ints("stride n_cols ignore_index"), "label_smoothing": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=s, tag=ty, div16=("stride",)))
for cc, w, ty, blk in [(80, 4, "fp16", 1024), (90, 8, "bf16", 4096), (100, 2, "fp32", 512)]:
    add(C(T27, "rmsnorm_fwd_kernel", {**ptrs("x_ptr w_ptr y_ptr", ty), "rstd_ptr": "*fp32", **ints("stride n_cols"),
                                      "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w, ty in [(80, 4, "fp16"), (90, 8, "bf16"), (100, 4, "fp32")]:
    add(C(T27, "rmsnorm_bwd_kernel", {**ptrs("dy_ptr x_ptr w_ptr", ty), "rstd_ptr": "*fp32", "dx_ptr": f"*{ty}",
                                      "dw_partial_ptr": "*fp32", **ptrs("lock_ptr count_ptr", "i32"),
                                      **ints("stride n_rows n_cols")}, {"GROUP": 32, "BLOCK": 1024},
          cc=cc, w=w, s=1, tag=ty))
for cc, w, s in [(80, 2, 2), (90, 4, 1), (100, 8, 3)]:
    add(C(T27, "rmsnorm_bwd_atomic_dw_kernel", {**ptrs("dy_ptr x_ptr w_ptr", "bf16"), "rstd_ptr": "*fp32",
                                                "dx_ptr": "*bf16", "dw_ptr": "*fp32", **ints("stride n_rows n_cols")},
          {"ROWS_PER_PROG": 8, "BLOCK": 2048}, cc=cc, w=w, s=s, div16=("stride", "n_cols")))
for cc, w, rot, inter in [(80, 4, 64, False), (90, 2, 128, True), (100, 4, 64, True)]:
    add(C(T27, "rotary_kernel", {**ptrs("x_ptr out_ptr", "fp16"), **ptrs("cos_ptr sin_ptr", "fp32"),
                                 "positions_ptr": "*i32", **ints("stride_tok stride_head n_heads")},
          {"HEAD_DIM": 128, "ROT_DIM": rot, "BLOCK_H": 4, "INTERLEAVED": inter}, cc=cc, w=w, s=1,
          tag=f"rot{rot}" + ("_il" if inter else ""), div16=("stride_tok", "stride_head")))
for cc, w, s, bm, bn, bk, exact in [(80, 4, 3, 64, 64, 32, False), (90, 8, 4, 128, 128, 64, True),
                                    (100, 4, 2, 64, 128, 64, False)]:
    add(C(T27, "linear_bias_gelu_kernel", {**ptrs("a_ptr w_ptr bias_ptr c_ptr", "fp16"),
                                           **ints("M N K stride_am stride_wn stride_cm")},
          {"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8, "EXACT": exact}, cc=cc, w=w, s=s,
          tag=f"{bm}x{bn}x{bk}" + ("_erf" if exact else "_tanh"), div16=("K", "stride_am", "stride_wn", "stride_cm")))
for cc, w, topk in [(80, 4, True), (90, 2, False), (100, 8, True)]:
    add(C(T27, "row_topk_kernel", {"x_ptr": "*fp32", "vals_ptr": "*fp32", "idx_ptr": "*i32", **ints("n_cols stride")},
          {"BLOCK_N": 512, "K": 16, "USE_TOPK": topk}, cc=cc, w=w, s=1, tag="topk" if topk else "sort"))
for cc, w, rev in [(80, 4, False), (90, 8, True), (100, 2, False)]:
    add(C(T27, "row_scan_kernel", {**ptrs("x_ptr sum_ptr prod_ptr seg_ptr", "fp32"), "flags_ptr": "*i32",
                                   **ints("n_cols stride")}, {"BLOCK": 1024, "REVERSE": rev}, cc=cc, w=w, s=1,
          tag="rev" if rev else "fwd"))
for cc, w, ty in [(80, 8, "fp16"), (90, 4, "bf16"), (100, 4, "fp32")]:
    add(C(T27, "quant_int8_row_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", "scale_ptr": "*fp32", "amax_ptr": "*i32",
                                         **ints("n_rows n_cols stride")}, {"BLOCK": 1024, "ROWS": 4},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w, s, split in [(80, 4, 3, 4), (90, 4, 2, 8), (100, 8, 4, 2)]:
    add(C(T27, "splitk_matmul_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": "*fp32",
                                        **ints("M N K stride_am stride_bk stride_cm")},
          {"BM": 64, "BN": 64, "BK": 32, "SPLIT_K": split}, cc=cc, w=w, s=s, tag=f"k{split}",
          div16=("M", "N", "K", "stride_am", "stride_bk", "stride_cm")))
for cc, w, s, sms in [(80, 4, 3, 108), (90, 8, 4, 132), (100, 4, 2, 148)]:
    add(C(T27, "persistent_matmul_kernel", {**ptrs("a_ptr b_ptr c_ptr", "bf16"),
                                            **ints("M N K stride_am stride_bk stride_cm")},
          {"BM": 128, "BN": 64, "BK": 32, "GROUP_M": 8, "NUM_SMS": sms}, cc=cc, w=w, s=s,
          div16=("K", "stride_am", "stride_bk", "stride_cm")))
for cc, w, s in [(80, 4, 2), (90, 4, 3)]:
    add(C(T27, "grouped_gemm_kernel", {**ptrs("a_ptrs_ptr b_ptrs_ptr c_ptrs_ptr", "i64"), **ptrs("sizes_ptr lds_ptr", "i32"),
                                       "n_groups": "i32"}, {"BM": 64, "BN": 64, "BK": 32, "NUM_SMS": 132},
          cc=cc, w=w, s=s))
for cc, w, ty, hm in [(80, 4, "fp16", True), (90, 2, "fp32", False), (100, 8, "bf16", True)]:
    add(C(T27, "causal_masked_softmax_kernel", {**ptrs("x_ptr out_ptr", ty), "mask_ptr": "*i8",
                                                **ints("n_cols stride mask_stride"), "scale": "fp32"},
          {"BLOCK": 2048, "HAS_MASK": hm}, cc=cc, w=w, s=1, tag=ty + ("_mask" if hm else "")))
for cc, w in [(80, 4), (100, 8)]:
    add(C(T27, "tile_stats_2d_kernel", {"x_ptr": "*fp16", **ptrs("sum_ptr absmax_ptr rowmax_ptr colsum_ptr", "fp32"),
                                        **ints("M N stride")}, {"BM": 64, "BN": 128}, cc=cc, w=w, s=1))
for cc, w, sem, scope in [(80, 4, "acq_rel", "gpu"), (90, 2, "relaxed", "cta"), (100, 4, "release", "sys"),
                          (90, 8, "acquire", "gpu")]:
    add(C(T27, "atomic_minmax_kernel", {**ptrs("x_ptr gmax_ptr gmin_ptr bucket_max_ptr out_ptr", "i32"),
                                        **ints("n n_buckets")}, {"SEM": sem, "SCOPE": scope, "BLOCK": 1024},
          cc=cc, w=w, s=1, tag=f"{sem}_{scope}"))

# ---------------------------------------------------------------- l28_gemm.py (stop 28 unseen set, cp.async forms)
L28 = "l28_gemm"
for ty, cc, w, s, bm, bn, bk, scale in [("fp16", 80, 4, 3, 128, 128, 32, False), ("fp16", 80, 4, 2, 64, 128, 64, True),
                                        ("bf16", 80, 8, 4, 128, 64, 32, False), ("fp16", 80, 2, 5, 32, 32, 64, True),
                                        ("fp32", 80, 4, 3, 64, 64, 16, False)]:
    add(C(L28, "l28_matmul_kernel", {**ptrs("a_ptr b_ptr c_ptr", ty), **ints("M N K stride_am stride_bk stride_cm"),
                                     "alpha": "fp32"}, {"BM": bm, "BN": bn, "BK": bk, "GROUP_M": 8, "SCALE": scale},
          cc=cc, w=w, s=s, tag=f"{ty}_{bm}x{bn}x{bk}", div16=("K", "stride_am", "stride_bk", "stride_cm")))
for cc, w, s, bm, bn, bk, split in [(80, 4, 3, 64, 64, 64, 4), (80, 8, 2, 128, 128, 32, 2), (80, 4, 4, 32, 64, 32, 8)]:
    add(C(L28, "l28_splitk_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": "*fp32",
                                     **ints("M N K stride_am stride_bk stride_cm")},
          {"BM": bm, "BN": bn, "BK": bk, "SPLIT_K": split}, cc=cc, w=w, s=s, tag=f"{bm}x{bn}x{bk}_k{split}",
          div16=("M", "N", "K", "stride_am", "stride_bk", "stride_cm")))
for cc, w, s in [(80, 4, 3), (80, 4, 2)]:
    add(C(L28, "l28_bmm_kernel", {**ptrs("a_ptr b_ptr c_ptr", "fp16"), **ints("M N K"), "stride_ab": "i64",
                                  "stride_am": "i32", "stride_bb": "i64", "stride_bk": "i32", "stride_cb": "i64",
                                  "stride_cm": "i32"}, {"BM": 64, "BN": 64, "BK": 32}, cc=cc, w=w, s=s,
          div16=("K", "stride_am", "stride_bk", "stride_cm", "stride_ab", "stride_bb", "stride_cb")))
for cc, w, s, div in [(80, 4, 3, ("K", "stride_xm", "stride_wn", "stride_ym")), (80, 4, 3, ())]:
    add(C(L28, "l28_linear_kernel", {**ptrs("x_ptr w_ptr y_ptr", "fp16"), **ints("M N K stride_xm stride_wn stride_ym")},
          {"BM": 64, "BN": 64, "BK": 64}, cc=cc, w=w, s=s, tag="div16" if div else "nodiv", div16=div))
add(C(L28, "l28_int8_matmul_kernel", {**ptrs("a_ptr b_ptr", "i8"), "scale_ptr": "*fp32", "c_ptr": "*fp16",
                                      **ints("M N K stride_am stride_bk stride_cm")}, {"BM": 64, "BN": 64, "BK": 64},
      cc=80, w=4, s=3, div16=("K", "stride_am", "stride_bk", "stride_cm")))

# ---------------------------------------------------------------- t28_kernels.py (stop 28 unseen set)
T28 = "t28_kernels"
for ty, cc, w, s, bm, bn, bk, mul in [("fp16", 80, 4, 3, 64, 64, 32, True), ("bf16", 90, 8, 4, 64, 128, 64, False),
                                      ("fp16", 100, 4, 2, 16, 64, 128, True)]:
    add(C(T28, "fused_moe_kernel", {**ptrs("a_ptr b_ptr c_ptr", ty), "topk_weights_ptr": "*fp32",
                                    **ptrs("sorted_token_ids_ptr expert_ids_ptr num_tokens_post_padded_ptr", "i32"),
                                    **ints("N K EM num_valid_tokens stride_am stride_be stride_bn stride_cm")},
          {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "TOP_K": 2, "MUL_ROUTED_WEIGHT": mul},
          cc=cc, w=w, s=s, tag=f"{ty}_{bm}x{bn}x{bk}", div16=("N", "K", "stride_am", "stride_be", "stride_bn",
                                                                "stride_cm")))
for cc, w, s, hz in [(80, 4, 2, True), (90, 4, 3, False), (100, 8, 4, True)]:
    add(C(T28, "w4a16_matmul_kernel", {"a_ptr": "*fp16", "qw_ptr": "*i32", **ptrs("scales_ptr zeros_ptr c_ptr", "fp16"),
                                       **ints("M N K stride_am stride_qk stride_sg stride_cm")},
          {"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_SIZE": 128, "HAS_ZERO": hz}, cc=cc, w=w, s=s,
          tag="zp" if hz else "sym", div16=("K", "stride_am", "stride_qk", "stride_sg", "stride_cm")))
for cc, w, s in [(90, 4, 3), (100, 8, 2), (90, 8, 4)]:
    add(C(T28, "fp8_blockwise_matmul_kernel", {**ptrs("a_ptr b_ptr", "fp8e4nv"), "c_ptr": "*bf16",
                                               **ptrs("as_ptr bs_ptr", "fp32"),
                                               **ints("M N K stride_am stride_bn stride_cm stride_as_m stride_bs_n")},
          {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_K": 128, "GROUP_N": 128}, cc=cc, w=w, s=s,
          div16=("N", "K", "stride_am", "stride_bn", "stride_cm")))
for cc, w, ty, cty, q in [(80, 4, "fp16", "fp16", False), (90, 2, "bf16", "fp8e4nv", True), (100, 4, "bf16", "bf16", False)]:
    add(C(T28, "reshape_and_cache_kernel", {**ptrs("key_ptr value_ptr", ty), **ptrs("key_cache_ptr value_cache_ptr", cty),
                                            "slot_mapping_ptr": "*i64", "k_scale_ptr": "*fp32",
                                            **ints("stride_kt stride_vt stride_cb stride_cs num_heads")},
          {"HEAD_DIM": 128, "BLOCK_SIZE": 16, "BLOCK_H": 4, "QUANT": q}, cc=cc, w=w, s=1, tag=cty,
          div16=("stride_kt", "stride_vt", "stride_cb", "stride_cs")))
for cc, w, s, hd, bm, bn, causal in [(80, 4, 2, 64, 64, 64, True), (90, 8, 3, 128, 128, 64, True),
                                     (100, 4, 3, 64, 128, 32, False), (80, 4, 1, 128, 64, 32, False)]:
    add(C(T28, "varlen_flash_attn_fwd_kernel", {**ptrs("q_ptr k_ptr v_ptr o_ptr", "fp16"), "lse_ptr": "*fp32",
                                                "cu_seqlens_ptr": "*i32", "sm_scale": "fp32",
                                                **ints("stride_qt stride_qh stride_kt stride_kh stride_ot stride_oh num_heads")},
          {"HEAD_DIM": hd, "BLOCK_M": bm, "BLOCK_N": bn, "CAUSAL": causal}, cc=cc, w=w, s=s,
          tag=f"hd{hd}_" + ("causal" if causal else "full"),
          div16=("stride_qt", "stride_qh", "stride_kt", "stride_kh", "stride_ot", "stride_oh")))
for cc, w, splits in [(80, 2, 8), (90, 4, 16), (100, 1, 4)]:
    add(C(T28, "split_kv_combine_kernel", {"out_ptr": "*fp16", **ptrs("partial_o_ptr partial_lse_ptr", "fp32"),
                                           "seq_lens_ptr": "*i32", **ints("stride_ps stride_ph num_heads")},
          {"NUM_SPLITS": splits, "SPLIT_SIZE": 512, "HEAD_DIM": 128}, cc=cc, w=w, s=1, tag=f"s{splits}"))
for cc, w, block in [(80, 8, 2048), (90, 4, 1024), (100, 16, 1024)]:
    add(C(T28, "top_p_sampling_kernel", {"probs_ptr": "*fp32", "out_ptr": "*i32", "top_p_ptr": "*fp32",
                                         **ints("seed stride vocab")}, {"BLOCK": block}, cc=cc, w=w, s=1,
          tag=f"b{block}"))
for cc, w, mode, psw, ty in [(80, 4, "sum", True, "fp32"), (90, 2, "mean", False, "bf16"), (100, 4, "max", False, "fp16")]:
    add(C(T28, "embedding_bag_kernel", {"weight_ptr": f"*{ty}", "indices_ptr": "*i64", "offsets_ptr": "*i64",
                                        "psw_ptr": "*fp32", "out_ptr": f"*{ty}", **ints("dim num_indices")},
          {"BLOCK_D": 256, "MODE": mode, "HAS_PSW": psw}, cc=cc, w=w, s=1, tag=mode + ("_psw" if psw else ""),
          div16=("dim",)))
for cc, w, s, ty in [(80, 4, 1, "fp32"), (90, 4, 2, "fp16"), (100, 8, 3, "bf16")]:
    add(C(T28, "csr_spmm_kernel", {**ptrs("row_ptr_ptr col_idx_ptr", "i32"), **ptrs("val_ptr b_ptr c_ptr", ty),
                                   **ints("N stride_b stride_c")}, {"BLOCK_NZ": 16, "BLOCK_N": 128}, cc=cc, w=w, s=s,
          tag=ty, div16=("stride_b", "stride_c")))
for cc, w, s, ty in [(80, 4, 1, "fp16"), (90, 8, 2, "fp32"), (100, 4, 3, "bf16")]:
    add(C(T28, "channel_stats_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr var_ptr running_mean_ptr running_var_ptr", "fp32"),
                                        **ints("rows C"), "momentum": "fp32"},
          {"BLOCK_R": 64, "BLOCK_C": 32}, cc=cc, w=w, s=s, tag=ty, div16=("C",)))
for cc, w, ty in [(80, 4, "fp32"), (90, 8, "fp16"), (100, 2, "bf16")]:
    add(C(T28, "col_argmin_kernel", {"x_ptr": f"*{ty}", "val_ptr": "*fp32", "idx_ptr": "*i32", **ints("M N stride")},
          {"BLOCK_M": 32, "BLOCK_N": 64}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w, s in [(80, 4, 3), (90, 8, 2), (100, 4, 4)]:
    add(C(T28, "stream_k_matmul_kernel", {**ptrs("a_ptr b_ptr c_ptr", "fp16"), "partial_ptr": "*fp32", "flags_ptr": "*i32",
                                          **ints("M N K stride_am stride_bk stride_cm iters_per_prog")},
          {"BM": 64, "BN": 64, "BK": 32}, cc=cc, w=w, s=s, div16=("K", "stride_am", "stride_bk", "stride_cm")))
for cc, w, s in [(80, 4, 1), (90, 2, 2), (100, 8, 1)]:
    add(C(T28, "work_queue_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ptrs("counter_ptr done_ptr", "i32"),
                                     **ints("n_items item_len")}, {"BLOCK": 1024}, cc=cc, w=w, s=s))
for cc, w, hz, sp in [(80, 4, True, True), (90, 2, False, True), (100, 4, True, False)]:
    add(C(T28, "selective_state_update_kernel", {"state_ptr": "*fp32", **ptrs("x_ptr dt_ptr dt_bias_ptr", "bf16"),
                                                 "A_ptr": "*fp32", **ptrs("B_ptr C_ptr", "bf16"), "D_ptr": "*fp32",
                                                 **ptrs("z_ptr out_ptr", "bf16"),
                                                 **ints("dim dstate stride_sb stride_sd stride_xb stride_bb")},
          {"BLOCK_D": 32, "BLOCK_S": 16, "HAS_Z": hz, "SOFTPLUS": sp}, cc=cc, w=w, s=1,
          tag=("z" if hz else "noz") + ("_sp" if sp else ""), div16=("stride_sb", "stride_sd", "stride_xb")))
for cc, w, width, silu in [(80, 4, 4, True), (90, 4, 3, False), (100, 2, 4, True)]:
    add(C(T28, "causal_conv1d_kernel", {**ptrs("x_ptr w_ptr bias_ptr out_ptr", "fp16"), **ints("seqlen dim stride_xb stride_xd")},
          {"BLOCK_L": 64, "BLOCK_D": 64, "WIDTH": width, "SILU": silu}, cc=cc, w=w, s=1,
          tag=f"w{width}" + ("_silu" if silu else ""), div16=("stride_xb", "stride_xd")))
for cc, w, ty in [(90, 4, "fp16"), (100, 4, "fp32"), (90, 8, "bf16")]:
    add(C(T28, "tma_transpose_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("M N")}, {"BLOCK_M": 64, "BLOCK_N": 64},
          cc=cc, w=w, s=1, tag=ty, div16=("M", "N")))

# ---------------------------------------------------------------- s31_scans.py (helper tscan31, stop 31)
S31 = "s31_scans"
for cc, w in [(80, 1), (90, 4), (100, 8)]:
    add(C(S31, "segmented_cumsum_kernel", {"x_ptr": "*fp32", "flag_ptr": "*i8", "out_ptr": "*fp32", "n": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp16", 80, 2), ("fp32", 90, 1), ("bf16", 100, 4)]:
    add(C(S31, "ema_scan_kernel", {**ptrs("x_ptr out_ptr", ty), "alpha": "fp32", **ints("n_cols stride")},
          {"BLOCK": 512}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (90, 2), (100, 1)]:
    add(C(S31, "stream_compact_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "count_ptr": "*i32", "n": "i32",
                                         "threshold": "fp32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (100, 2)]:
    add(C(S31, "histogram_scatter_kernel", {**ptrs("x_ptr hist_ptr", "i32"), "n": "i32"},
          {"NUM_BINS": 64, "BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(90, 4), (80, 8)]:
    add(C(S31, "argsort_rows_kernel", {"x_ptr": "*fp32", "idx_ptr": "*i32", **ints("n_cols stride")},
          {"BLOCK": 256}, cc=cc, w=w, s=1))
for cc, w in [(80, 2), (90, 8), (100, 4)]:
    add(C(S31, "gather_cumsum_kernel", {"src_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32",
                                        "total_ptr": "*fp32", "n": "i32"}, {"BLOCK": 512}, cc=cc, w=w, s=1))

# ---------------------------------------------------------------- r32_rowreduce.py (helper tslot32, stop 32)
R32 = "r32_rowreduce"
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 2048, 90, 8), ("bf16", 512, 100, 2)]:
    add(C(R32, "row_mean_var_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr rstd_ptr", "fp32"),
                                       **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 80, 2), ("fp16", 1024, 90, 4), ("bf16", 4096, 100, 16), ("fp32", 2048, 90, 8)]:
    add(C(R32, "row_softmax_kernel", {**ptrs("out_ptr in_ptr", ty), **ints("n_cols in_stride out_stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=f"{ty}b{blk}", div16=("in_stride", "out_stride")))
for ty, blk, cc, w in [("fp16", 1024, 80, 4), ("bf16", 4096, 90, 8), ("fp32", 256, 100, 2)]:
    add(C(R32, "rms_norm_fwd_kernel", {**ptrs("x_ptr w_ptr y_ptr", ty), "rstd_ptr": "*fp32",
                                       **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("bf16", 2048, 80, 8), ("fp16", 8192, 100, 16)]:
    add(C(R32, "layer_norm_fwd_kernel", {**ptrs("x_ptr w_ptr b_ptr y_ptr", ty), **ptrs("mean_ptr rstd_ptr", "fp32"),
                                         **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 512, 90, 2), ("bf16", 2048, 100, 8)]:
    add(C(R32, "row_logsumexp_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("fp16", 256, 80, 2)]:
    add(C(R32, "row_argmax_kernel", {"x_ptr": f"*{ty}", "idx_ptr": "*i32", "val_ptr": f"*{ty}",
                                     **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 4096, 80, 8), ("bf16", 1024, 90, 4), ("fp16", 2048, 100, 16)]:
    add(C(R32, "cross_entropy_fwd_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64",
                                            **ptrs("loss_ptr lse_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 2048, 90, 8), ("fp16", 512, 80, 4)]:
    add(C(R32, "row_sum_max_kernel", {"x_ptr": f"*{ty}", **ptrs("sum_ptr max_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))

# ---------------------------------------------------------------- u32_rowops.py (helper tbssy32, stop 32)
U32 = "u32_rowops"
for ty, cc, w, blk in [("fp16", 80, 4, 1024), ("fp32", 90, 2, 256), ("bf16", 100, 8, 2048)]:
    add(C(U32, "rms_norm_fwd_kernel", {**ptrs("x_ptr w_ptr y_ptr", ty), "rstd_ptr": "*fp32", **ints("n_cols stride"),
                                       "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, cc, w in [("fp32", 80, 1), ("fp16", 90, 4), ("fp32", 100, 2)]:
    add(C(U32, "layer_norm_stats_kernel", {**ptrs("x_ptr w_ptr b_ptr y_ptr", ty), **ptrs("mean_ptr rstd_ptr", "fp32"),
                                           **ints("n_cols stride"), "eps": "fp32"}, {"BLOCK": 512},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, cc, w in [("fp32", 80, 2), ("bf16", 90, 8), ("fp16", 100, 4)]:
    add(C(U32, "softmax_temp_kernel", {**ptrs("x_ptr y_ptr", ty), "lse_ptr": "*fp32", **ints("n_cols stride"),
                                       "inv_temp": "fp32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (90, 4), (100, 8)]:
    add(C(U32, "cross_entropy_fwd_kernel", {"logits_ptr": "*fp32", "labels_ptr": "*i64", "loss_ptr": "*fp32",
                                            "dlogits_ptr": "*fp32", **ints("n_cols stride")}, {"BLOCK": 1024},
          cc=cc, w=w, s=1, div16=("stride",)))
for cc, w in [(80, 1), (90, 2), (100, 4)]:
    add(C(U32, "row_argmax_kernel", {"x_ptr": "*fp32", "val_ptr": "*fp32", "idx_ptr": "*i32", **ints("n_cols stride")},
          {"BLOCK": 256}, cc=cc, w=w, s=1))
for cc, w in [(80, 2), (90, 1), (100, 4)]:
    add(C(U32, "gather_rowsum_kernel", {"src_ptr": "*fp32", "idx_ptr": "*i32", "out_ptr": "*fp32", **ints("n_idx n_src")},
          {"BLOCK": 128}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 8), (100, 1)]:
    add(C(U32, "split_stats_kernel", {**ptrs("x_ptr sum_ptr sq_ptr max_ptr min_ptr", "fp32"), "n": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(80, 1), (90, 4), (100, 2)]:
    add(C(U32, "masked_row_cumsum_kernel", {**ptrs("x_ptr y_ptr tot_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": 256}, cc=cc, w=w, s=1))

# ---------------------------------------------------------------- p33_persist.py (helper tpersist33, stop 33)
P33 = "p33_persist"
for ty, cc, w, s, blk in [("bf16", 80, 4, 2, 1024), ("fp16", 90, 8, 3, 2048), ("bf16", 100, 8, 3, 4096)]:
    add(C(P33, "persistent_absmax_kernel", {"x_ptr": f"*{ty}", "amax_ptr": "*fp32", **ints("n_elements n_tiles")},
          {"BLOCK": blk, "NUM_SMS": 132}, cc=cc, w=w, s=s, tag=ty))
for ty, cc, w, s in [("fp16", 80, 8, 3), ("bf16", 90, 4, 2)]:
    add(C(P33, "persistent_absmax_scale_kernel", {"x_ptr": f"*{ty}", "y_ptr": "*i8", "scale_ptr": "*fp32",
                                                  "n_tiles": "i32"}, {"BLOCK": 1024, "NUM_SMS": 108},
          cc=cc, w=w, s=s, tag=ty))
for ty, cc, w, s in [("bf16", 90, 4, 3), ("fp16", 100, 4, 2)]:
    add(C(P33, "persistent_global_absmax_kernel", {"x_ptr": f"*{ty}", "amax_ptr": "*fp32", "n_elements": "i32"},
          {"BLOCK": 2048, "NUM_SMS": 132}, cc=cc, w=w, s=s, tag=ty))
for cc, w, s in [(80, 4, 3), (100, 8, 2)]:
    add(C(P33, "persistent_tile_sum_atomic_kernel", {"x_ptr": "*fp16", "out_ptr": "*fp32", **ints("n_elements n_tiles")},
          {"BLOCK": 1024, "NUM_SMS": 108}, cc=cc, w=w, s=s))
for ty, cc, w, s in [("fp16", 90, 8, 2), ("bf16", 80, 4, 3)]:
    add(C(P33, "persistent_row_amax_kernel", {"x_ptr": f"*{ty}", "amax_ptr": "*fp32", **ints("n_rows n_cols stride")},
          {"BLOCK": 2048, "NUM_SMS": 132}, cc=cc, w=w, s=s, tag=ty, div16=("stride",)))
for ty, cc, w in [("bf16", 80, 4), ("fp16", 100, 8)]:
    add(C(P33, "tile_absmax_atomic_kernel", {"x_ptr": f"*{ty}", "amax_ptr": "*fp32", "n_elements": "i32"},
          {"BLOCK": 2048}, cc=cc, w=w, s=2, tag=ty))
for ty, cc, w, blk in [("fp16", 80, 4, 1024), ("bf16", 90, 8, 2048), ("fp32", 100, 4, 512)]:
    add(C(P33, "row_cumsum_quant_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", "scale_ptr": "*fp32",
                                           **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=2, tag=ty,
          div16=("stride",)))
for cc, w in [(80, 8), (90, 4)]:
    add(C(P33, "row_cumsum_fixed_scale_kernel", {"x_ptr": "*bf16", "q_ptr": "*i8", **ints("n_cols stride"),
                                                 "inv_scale": "fp32"}, {"BLOCK": 1024}, cc=cc, w=w, s=3))
for cc, w in [(80, 4), (100, 8)]:
    add(C(P33, "row_cumsum_total_quant_kernel", {"x_ptr": "*fp16", "q_ptr": "*i8", "total_ptr": "*fp32",
                                                 **ints("n_cols stride")}, {"BLOCK": 2048}, cc=cc, w=w, s=2,
          div16=("stride",)))
for ty, cc, w, s in [("fp16", 80, 4, 3), ("bf16", 90, 8, 3), ("fp16", 100, 4, 2)]:
    add(C(P33, "matmul_splitk_atomic_kernel", {**ptrs("a_ptr b_ptr", ty), "c_ptr": "*fp32",
                                               **ints("M N K stride_am stride_ak stride_bk stride_bn stride_cm stride_cn")},
          {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 4}, cc=cc, w=w, s=s, tag=ty,
          div16=("stride_am", "stride_bk", "stride_cm")))
for cc, w, s in [(80, 4, 2), (90, 4, 3)]:
    add(C(P33, "matmul_splitk_bias_kernel", {**ptrs("a_ptr b_ptr bias_ptr", "fp16"), "c_ptr": "*fp32",
                                             **ints("M N K stride_am stride_bk stride_cm")},
          {"BLOCK_M": 32, "BLOCK_N": 64, "BLOCK_K": 64, "SPLIT_K": 2}, cc=cc, w=w, s=s,
          div16=("K", "stride_am", "stride_bk", "stride_cm")))

# ---------------------------------------------------------------- x33_dualreduce.py (helper tslot33, stop 33)
X33 = "x33_dualreduce"
for ty, blk, cc, w in [("fp32", 2048, 80, 8), ("bf16", 4096, 90, 16), ("fp16", 512, 100, 2)]:
    add(C(X33, "ce_fwd_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", "loss_ptr": "*fp32",
                                 **ints("n_cols stride ignore_index")}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 1024, 80, 4), ("fp32", 4096, 100, 8)]:
    add(C(X33, "ce_smooth_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", **ptrs("loss_ptr z_ptr", "fp32"),
                                    **ints("n_cols stride"), "smoothing": "fp32"}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("fp16", 2048, 80, 8)]:
    add(C(X33, "ce_fwd_looped_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", "loss_ptr": "*fp32",
                                        **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 256, 90, 2)]:
    add(C(X33, "row_min_max_kernel", {"x_ptr": f"*{ty}", **ptrs("min_ptr max_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("bf16", 2048, 100, 8), ("fp32", 512, 80, 4)]:
    add(C(X33, "row_sum_absmax_kernel", {"x_ptr": f"*{ty}", **ptrs("out_ptr scale_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 4096, 90, 16), ("fp16", 1024, 80, 4)]:
    add(C(X33, "row_moments_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr msq_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp16", 2048, 90, 8), ("fp32", 256, 100, 2)]:
    add(C(X33, "dual_norm_kernel", {**ptrs("x_ptr y_ptr", ty), **ptrs("l1_ptr l2_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 80, 4), ("bf16", 1024, 100, 8)]:
    add(C(X33, "row_moments_looped_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr var_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 2048, 90, 8), ("fp16", 512, 80, 4)]:
    add(C(X33, "row_max_sum_looped_kernel", {"x_ptr": f"*{ty}", **ptrs("max_ptr sum_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))

# ---------------------------------------------------------------- y33_sortnorm.py (helper tsort33, stop 33)
Y33 = "y33_sortnorm"
for blk, desc, cc, w in [(256, False, 80, 4), (512, True, 90, 8), (128, True, 100, 2)]:
    add(C(Y33, "row_sort_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk, "DESCENDING": desc}, cc=cc, w=w, s=1, tag=f"b{blk}{'d' if desc else 'a'}"))
for ty, blk, k, cc, w in [("fp32", 256, 8, 90, 4), ("fp16", 1024, 16, 80, 8)]:
    add(C(Y33, "row_topk_vals_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk, "K": k}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 2), (90, 4)]:
    add(C(Y33, "row_argsort_desc_kernel", {**ptrs("x_ptr vals_ptr", "fp32"), "idx_ptr": "*i32", **ints("n_cols stride")},
          {"BLOCK": 128}, cc=cc, w=w, s=1))
for cc, w in [(90, 4), (100, 8)]:
    add(C(Y33, "topk_softmax_kernel", {"logits_ptr": "*bf16", "probs_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": 128, "K": 8}, cc=cc, w=w, s=1))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 90, 8), ("fp16", 512, 100, 4)]:
    add(C(Y33, "rmsnorm_bwd_dx_kernel", {**ptrs("dy_ptr x_ptr w_ptr", ty), "rstd_ptr": "*fp32", "dx_ptr": f"*{ty}",
                                         "dw_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 1024, 90, 4), ("fp32", 4096, 80, 8)]:
    add(C(Y33, "rmsnorm_bwd_recompute_kernel", {**ptrs("dy_ptr x_ptr w_ptr dx_ptr", ty), "dw_ptr": "*fp32",
                                                **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, cc, w in [("fp16", 90, 8), ("fp32", 80, 4)]:
    add(C(Y33, "rmsnorm_bwd_rows_kernel", {**ptrs("dy_ptr x_ptr w_ptr", ty), "rstd_ptr": "*fp32", "dx_ptr": f"*{ty}",
                                           "dw_part_ptr": "*fp32", **ints("n_rows n_cols stride")},
          {"ROWS_PER_PROG": 8, "BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("bf16", 512, 90, 8), ("fp16", 2048, 80, 4)]:
    add(C(Y33, "cumsum_quant_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", "scale_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(90, 4), (100, 2)]:
    add(C(Y33, "cumsum_norm_kernel", {**ptrs("x_ptr y_ptr", "fp32"), "tot_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": 512}, cc=cc, w=w, s=1))

# ---------------------------------------------------------------- a34_dualreduce.py (helper tslot34, stop 34)
A34 = "a34_dualreduce"
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 4096, 90, 8), ("fp16", 2048, 100, 8)]:
    add(C(A34, "ce_bwd_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", "dloss_ptr": "*fp32",
                                 "dlogits_ptr": f"*{ty}", **ints("n_cols stride")}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 2048, 80, 8), ("fp32", 512, 90, 4)]:
    add(C(A34, "ce_zloss_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", **ptrs("loss_ptr lse_ptr", "fp32"),
                                   **ints("n_cols stride"), "z_coef": "fp32"}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 2048, 90, 8)]:
    add(C(A34, "kl_div_rows_kernel", {**ptrs("p_ptr q_ptr", ty), "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 90, 4), ("bf16", 1024, 80, 2)]:
    add(C(A34, "softmax_entropy_kernel", {"x_ptr": f"*{ty}", "ent_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp16", 1024, 80, 4), ("fp32", 2048, 100, 8)]:
    add(C(A34, "quant_asym_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", **ptrs("scale_ptr zp_ptr", "fp32"),
                                     **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 90, 8)]:
    add(C(A34, "layernorm_onepass_kernel", {**ptrs("x_ptr w_ptr b_ptr y_ptr", ty), **ints("n_cols stride"),
                                            "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 256, 90, 2), ("bf16", 1024, 80, 4)]:
    add(C(A34, "rms_absmax_kernel", {"x_ptr": f"*{ty}", **ptrs("rms_ptr amax_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("bf16", 2048, 80, 8)]:
    add(C(A34, "online_softmax_stats_kernel", {"x_ptr": f"*{ty}", **ptrs("max_ptr sum_ptr", "fp32"),
                                               **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 512, 80, 4), ("fp16", 2048, 90, 8)]:
    add(C(A34, "masked_mean_count_kernel", {"x_ptr": f"*{ty}", "valid_ptr": "*i8", "mean_ptr": "*fp32",
                                            **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))

# ---------------------------------------------------------------- b34_convreg.py (helper tconv34, stop 34)
B34 = "b34_convreg"
for ty, cc, w, s, blk in [("fp16", 80, 4, 3, 1024), ("fp32", 90, 8, 2, 2048), ("bf16", 100, 2, 3, 512),
                          ("fp32", 80, 1, 2, 256)]:
    add(C(B34, "persist_tile_max_atomic_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_elements n_tiles")},
          {"BLOCK": blk, "NUM_SMS": 132}, cc=cc, w=w, s=s, tag=ty))
for ty, cc, w, s in [("bf16", 80, 8, 2), ("fp32", 90, 4, 3)]:
    add(C(B34, "persist_tile_sum_slot_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_elements n_tiles")},
          {"N_SLOTS": 16, "BLOCK": 1024, "NUM_SMS": 108}, cc=cc, w=w, s=s, tag=ty))
for ty, cc, w, s in [("fp16", 80, 4, 2), ("fp32", 90, 8, 3)]:
    add(C(B34, "persist_rows_minmax_atomic_kernel", {"x_ptr": f"*{ty}", **ptrs("min_ptr max_ptr", "fp32"),
                                                     **ints("n_rows n_cols stride")},
          {"BLOCK": 1024, "NUM_SMS": 132}, cc=cc, w=w, s=s, tag=ty, div16=("stride",)))
for cc, w, s in [(80, 2, 3), (90, 4, 2)]:
    add(C(B34, "persist_absmax_count_kernel", {"x_ptr": "*bf16", **ptrs("amax_ptr", "fp32"), "cnt_ptr": "*i32",
                                               "n_elements": "i32", "thresh": "fp32"},
          {"BLOCK": 1024, "NUM_SMS": 108}, cc=cc, w=w, s=s))
for ty, cc, w, blk in [("fp32", 80, 4, 1024), ("fp16", 90, 8, 2048), ("bf16", 80, 2, 512)]:
    add(C(B34, "cumsum_absmax_quant_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", "scale_ptr": "*fp32",
                                              **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=2, tag=ty,
          div16=("stride",)))
for ty, cc, w in [("fp16", 80, 4), ("bf16", 90, 1)]:
    add(C(B34, "cumsum_scale_fp16_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride"), "scale": "fp32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=3, tag=ty))
for cc, w, blk in [(80, 8, 2048), (100, 4, 1024)]:
    add(C(B34, "cumsum_exclusive_quant_kernel", {"x_ptr": "*fp32", "q_ptr": "*i8", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=2, div16=("stride",)))
for ty, cc, w, s in [("fp16", 80, 4, 2), ("bf16", 80, 8, 3), ("fp16", 90, 4, 4)]:
    add(C(B34, "splitk_gemm_atomic_kernel", {**ptrs("a_ptr b_ptr", ty), "c_ptr": "*fp32",
                                             **ints("M N K stride_am stride_bk stride_cm")},
          {"BLOCK_M": 64, "BLOCK_N": 32, "BLOCK_K": 32, "SPLIT_K": 8}, cc=cc, w=w, s=s, tag=ty,
          div16=("stride_am", "stride_bk", "stride_cm")))
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 2)]:
    add(C(B34, "splitk_gemv_atomic_kernel", {"a_ptr": f"*{ty}", "x_ptr": f"*{ty}", "y_ptr": "*fp32",
                                             **ints("M K stride_am")},
          {"BLOCK_M": 32, "BLOCK_K": 128, "SPLIT_K": 4}, cc=cc, w=w, s=2, tag=ty, div16=("stride_am",)))
for ty, cc, w, s in [("fp16", 80, 4, 3), ("fp32", 100, 8, 2)]:
    add(C(B34, "masked_loop_sumsq_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": 1024}, cc=cc, w=w, s=s, tag=ty))
for ty, cc, w in [("bf16", 80, 4), ("fp16", 90, 2)]:
    add(C(B34, "masked_loop_scale_store_kernel", {**ptrs("x_ptr y_ptr", ty), "amax_ptr": "*fp32",
                                                  **ints("n_cols stride")},
          {"BLOCK": 512}, cc=cc, w=w, s=2, tag=ty, div16=("stride",)))

# ---------------------------------------------------------------- e35_atomics.py (helper tatom35, stop 35)
E35 = "e35_atomics"
for cc, w in [(80, 4), (90, 1)]:
    add(C(E35, "hist_release_kernel", {"x_ptr": "*i32", "hist_ptr": "*i32", "n": "i32"},
          {"N_BINS": 64, "BLOCK": 512}, cc=cc, w=w, s=1))
for ty, cc, w in [("i32", 80, 2), ("i64", 90, 4)]:
    add(C(E35, "minmax_acq_kernel", {**ptrs("x_ptr lo_ptr hi_ptr", ty), "n": "i32"}, {"BLOCK": 256}, cc=cc, w=w, s=1,
          tag=ty))
for ty, sem, cc, w in [("fp16", "acq_rel", 90, 4), ("bf16", "relaxed", 90, 2), ("fp64", "release", 80, 4)]:
    add(C(E35, "half_add_kernel", {**ptrs("x_ptr acc_ptr", ty), "n": "i32"}, {"SEM": sem, "BLOCK": 256},
          cc=cc, w=w, s=1, tag=f"{ty}_{sem}"))
add(C(E35, "bits_xchg_kernel", {"flags_ptr": "*i64", "out_ptr": "*i64", "n": "i32"}, {"BLOCK": 256}, cc=80, w=4, s=1))
add(C(E35, "cas_claim_kernel", {**ptrs("slot_ptr owner_ptr", "i32"), "n": "i32"}, {"BLOCK": 128}, cc=90, w=4, s=1))
for cc, w in [(80, 4), (100, 8)]:
    add(C(E35, "persist_rowsum_atomic_kernel", {"x_ptr": "*fp32", "out_ptr": "*fp32", **ints("n_rows n_cols stride")},
          {"BLOCK": 1024, "NUM_SMS": 132}, cc=cc, w=w, s=2, div16=("stride",)))
add(C(E35, "persist_i64_max_kernel", {"x_ptr": "*i64", "out_ptr": "*i64", "n_elements": "i32"},
      {"BLOCK": 512, "NUM_SMS": 108}, cc=90, w=2, s=2))
add(C(E35, "work_steal_kernel", {"counter_ptr": "*i32", **ptrs("x_ptr y_ptr", "fp32"), "n_items": "i32"},
      {"BLOCK": 256}, cc=80, w=2, s=1))
add(C(E35, "splitk_dot_atomic_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": "*fp32",
                                        **ints("M N K stride_am stride_bk stride_cm")},
      {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 4}, cc=90, w=4, s=3,
      div16=("stride_am", "stride_bk", "stride_cm")))

# ---------------------------------------------------------------- d35_twostat.py (helper tslotB35, stop 35)
D35 = "d35_twostat"
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 90, 8), ("fp16", 512, 100, 2), ("fp32", 4096, 90, 16)]:
    add(C(D35, "row_var_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr var_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp16", 1024, 90, 4), ("fp32", 2048, 80, 8)]:
    add(C(D35, "row_sum_max_kernel", {"x_ptr": f"*{ty}", **ptrs("sum_ptr max_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("bf16", 512, 80, 2)]:
    add(C(D35, "row_range_kernel", {"x_ptr": f"*{ty}", "range_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("bf16", 2048, 80, 4), ("fp32", 1024, 100, 8)]:
    add(C(D35, "abs_stats_kernel", {"x_ptr": f"*{ty}", **ptrs("l1_ptr amax_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp16", 1024, 80, 4), ("fp32", 512, 90, 4)]:
    add(C(D35, "cosine_kernel", {**ptrs("a_ptr b_ptr", ty), "out_ptr": "*fp32", **ints("n_cols stride"),
                                 "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("fp16", 2048, 80, 8)]:
    add(C(D35, "masked_sum_count_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", "cnt_ptr": "*i32",
                                           **ints("n_cols stride"), "thresh": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 90, 8)]:
    add(C(D35, "looped_sum_sumsq_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr rstd_ptr", "fp32"),
                                           **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=2, tag=ty))

# ---------------------------------------------------------------- f35_scans.py (helper tscan35, stop 35)
F35 = "f35_scans"
for ty, cc, w, blk in [("fp32", 80, 4, 1024), ("fp16", 90, 2, 512), ("bf16", 100, 8, 2048), ("fp32", 90, 1, 256)]:
    add(C(F35, "row_cumsum_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=f"{ty}w{w}", div16=("stride",)))
for ty, cc, w in [("fp32", 80, 4), ("bf16", 90, 2)]:
    add(C(F35, "row_cumsum_reverse_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 2), (100, 4)]:
    add(C(F35, "row_cumprod_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp32", 90, 4), ("i32", 80, 8)]:
    add(C(F35, "running_max_kernel", {**ptrs("x_ptr y_ptr", ty), "n": "i32"},
          {"BLOCK": 2048}, cc=cc, w=w, s=1, tag=ty))
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 1)]:
    add(C(F35, "ema_decay_kernel", {**ptrs("x_ptr decay_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": 512}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (90, 8), (100, 2)]:
    add(C(F35, "compact_positive_kernel", {"x_ptr": "*fp32", "out_ptr": "*fp32", **ptrs("idx_ptr count_ptr", "i32"),
                                           "n": "i32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 2)]:
    add(C(F35, "gather_prefix_kernel", {"src_ptr": "*fp16", "idx_ptr": "*i32", "out_ptr": "*fp32", "n": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp32", 80, 4), ("bf16", 90, 8)]:
    add(C(F35, "tiled_row_cumsum_kernel", {"x_ptr": f"*{ty}", "y_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": 1024}, cc=cc, w=w, s=2, tag=ty))
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 2)]:
    add(C(F35, "row_sort_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": 256}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(90, 4), (80, 2)]:
    add(C(F35, "row_argsort_kernel", {"x_ptr": "*i32", "idx_ptr": "*i32", **ints("n_cols stride")},
          {"BLOCK": 128}, cc=cc, w=w, s=1))
for cc, w in [(80, 8), (90, 4)]:
    add(C(F35, "cumsum_normalize_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": 2048}, cc=cc, w=w, s=1, div16=("stride",)))
for cc, w in [(80, 4), (100, 2)]:
    add(C(F35, "int_cumsum_2d_kernel", {**ptrs("x_ptr y_ptr", "i32"), **ints("n_rows n_cols")},
          {"BLOCK_R": 8, "BLOCK_C": 128}, cc=cc, w=w, s=1))

# ---------------------------------------------------------------- c35_dualstat.py (helper tslotA35, stop 35)
C35 = "c35_dualstat"
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 2048, 90, 4), ("bf16", 512, 80, 2)]:
    add(C(C35, "row_range_kernel", {"x_ptr": f"*{ty}", **ptrs("lo_ptr hi_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 2048, 90, 8), ("bf16", 1024, 80, 4)]:
    add(C(C35, "mean_absmax_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr amax_ptr", "fp32"),
                                      **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 4096, 90, 8)]:
    add(C(C35, "var_onepass_kernel", {"x_ptr": f"*{ty}", "var_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 90, 8)]:
    add(C(C35, "ce_fwd_gather_kernel", {"logits_ptr": f"*{ty}", "labels_ptr": "*i64", "loss_ptr": "*fp32",
                                        **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 80, 2), ("fp16", 1024, 90, 4)]:
    add(C(C35, "argmax_logsumexp_kernel", {"x_ptr": f"*{ty}", "idx_ptr": "*i32", "lse_ptr": "*fp32",
                                           **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 2048, 100, 8)]:
    add(C(C35, "masked_mean_count_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride"),
                                            "thresh": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("fp16", 512, 80, 4)]:
    add(C(C35, "two_row_max_kernel", {**ptrs("a_ptr b_ptr", ty), "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))

# ---------------------------------------------------------------- c36_rowstat.py (helper tslot36, stop 36)
C36 = "c36_rowstat"
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 90, 8)]:
    add(C(C36, "scaled_softmax_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride"), "scale": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp16", 1024, 90, 4), ("fp32", 512, 80, 2)]:
    add(C(C36, "rms_norm_w_kernel", {**ptrs("x_ptr w_ptr y_ptr", ty), **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 4096, 100, 8)]:
    add(C(C36, "layer_norm_twopass_kernel", {**ptrs("x_ptr w_ptr b_ptr y_ptr", ty), **ints("n_cols stride"),
                                             "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 80, 2), ("fp16", 2048, 90, 8)]:
    add(C(C36, "row_argmin_kernel", {"x_ptr": f"*{ty}", "idx_ptr": "*i32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w in [(80, 4), (90, 8)]:
    add(C(C36, "col_sum_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_rows n_cols")},
          {"BLOCK_R": 64, "BLOCK_C": 32}, cc=cc, w=w, s=1))
for ty, blk, cc, w in [("fp32", 2048, 90, 4), ("fp16", 1024, 80, 2)]:
    add(C(C36, "log_softmax_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 100, 4)]:
    add(C(C36, "l2_normalize_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 1024, 90, 4)]:
    add(C(C36, "absmax_quant_kernel", {"x_ptr": f"*{ty}", "q_ptr": "*i8", "s_ptr": "*fp32",
                                       **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 2048, 90, 8)]:
    add(C(C36, "row_sum_min_kernel", {"x_ptr": f"*{ty}", **ptrs("s_ptr m_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))

# ---------------------------------------------------------------- f36_convscan.py (helper tscan36, stop 36)
F36 = "f36_convscan"
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 2)]:
    add(C(F36, "cumsum_rows_2d_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_rows n_cols")},
          {"BLOCK_R": 4, "BLOCK_C": 128}, cc=cc, w=w, s=1, tag=ty))
add(C(F36, "cumsum_cols_2d_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_rows n_cols")},
      {"BLOCK_R": 64, "BLOCK_C": 16}, cc=80, w=4, s=1))
add(C(F36, "cummax_2d_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_rows n_cols")},
      {"BLOCK_R": 8, "BLOCK_C": 64}, cc=90, w=4, s=1))
add(C(F36, "exclusive_cumsum_kernel", {**ptrs("x_ptr y_ptr", "i32"), **ints("n_cols stride")},
      {"BLOCK": 512}, cc=80, w=4, s=1, div16=("stride",)))
add(C(F36, "cumsum_total_atomic_kernel", {**ptrs("x_ptr y_ptr total_ptr", "fp32"), **ints("n_cols stride")},
      {"BLOCK": 1024}, cc=90, w=4, s=1, div16=("stride",)))
add(C(F36, "gather_cumsum_2d_kernel", {"x_ptr": "*fp32", "idx_ptr": "*i32", "y_ptr": "*fp32",
                                       **ints("n_rows n_cols")}, {"BLOCK_R": 4, "BLOCK_C": 64}, cc=80, w=2, s=1))
for cc, w in [(80, 4), (100, 8)]:
    add(C(F36, "persist_tile_max_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n_elem n_tiles")},
          {"NUM_SMS": 132, "BLOCK": 1024}, cc=cc, w=w, s=2))
add(C(F36, "persist_tile_sum_kernel", {"x_ptr": "*bf16", "out_ptr": "*fp32", **ints("n_elem n_tiles")},
      {"NUM_SMS": 108, "BLOCK": 2048}, cc=90, w=4, s=3))
add(C(F36, "tile_row_stats_kernel", {"x_ptr": "*fp16", **ptrs("mean_ptr max_ptr", "fp32"), **ints("n_rows n_cols")},
      {"BLOCK_R": 8, "BLOCK_C": 128}, cc=80, w=4, s=1))
add(C(F36, "embedding_grad_kernel", {"idx_ptr": "*i64", "grad_ptr": "*fp32", "out_ptr": "*fp32",
                                     **ints("n_tok dim")}, {"BLOCK_D": 256}, cc=90, w=2, s=1))

# ---------------------------------------------------------------- e36_queues.py (helper tatom36, stop 36)
E36 = "e36_queues"
for cc, w in [(80, 4), (90, 2)]:
    add(C(E36, "ticket_queue_kernel", {"ticket_ptr": "*i32", **ptrs("x_ptr y_ptr", "fp32"), "n_tiles": "i32"},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (100, 8)]:
    add(C(E36, "queue_loop_sum_kernel", {"counter_ptr": "*i32", **ptrs("x_ptr out_ptr", "fp32"),
                                         **ints("n_rows n_cols")}, {"BLOCK": 1024}, cc=cc, w=w, s=1))
add(C(E36, "spin_lock_add_kernel", {"lock_ptr": "*i32", **ptrs("acc_ptr x_ptr", "fp32"), "n": "i32"},
      {"BLOCK": 1024}, cc=80, w=4, s=1))
for cc, w, s in [(80, 4, 3), (90, 4, 2)]:
    add(C(E36, "splitk_lock_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": "*fp32", "lock_ptr": "*i32",
                                      **ints("M N K stride_am stride_bk stride_cm")},
          {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 4}, cc=cc, w=w, s=s,
          div16=("stride_am", "stride_bk", "stride_cm")))
for cc, w in [(80, 4), (90, 8)]:
    add(C(E36, "compact_offset_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "count_ptr": "*i32", "n": "i32",
                                         "thresh": "fp32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 2)]:
    add(C(E36, "splitk_gemv_sem_kernel", {"a_ptr": f"*{ty}", "x_ptr": f"*{ty}", "y_ptr": "*fp32", "done_ptr": "*i32",
                                          **ints("M K stride_am")}, {"BLOCK_M": 32, "BLOCK_K": 128, "SPLIT_K": 4},
          cc=cc, w=w, s=2, tag=ty, div16=("stride_am",)))
for cc, w in [(80, 2), (90, 4)]:
    add(C(E36, "i64_counter_kernel", {**ptrs("x_ptr cnt_ptr out_ptr", "i64"), "n": "i32"}, {"BLOCK": 256},
          cc=cc, w=w, s=1))
for cc, w, s in [(80, 4, 3), (90, 8, 2)]:
    add(C(E36, "stream_k_tail_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": "*fp32", "flag_ptr": "*i32",
                                        **ints("M N K stride_am stride_bk stride_cm")},
          {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "ITERS": 4}, cc=cc, w=w, s=s,
          div16=("stride_am", "stride_bk", "stride_cm")))
add(C(E36, "semaphore_wait_kernel", {"sem_ptr": "*i32", **ptrs("x_ptr y_ptr", "fp32"), "n": "i32"},
      {"BLOCK": 512}, cc=90, w=4, s=1))

# ---------------------------------------------------------------- d36_intred.py (helper tsched36, stop 36)
D36 = "d36_intred"
for cc, w in [(80, 4), (90, 8), (100, 2)]:
    add(C(D36, "block_int_max_store_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
for cc, w in [(80, 8), (90, 4)]:
    add(C(D36, "block_int_sum_atomic_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 2048},
          cc=cc, w=w, s=1))
for cc, w in [(80, 4), (100, 4)]:
    add(C(D36, "block_min_then_max_atomic_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 2)]:
    add(C(D36, "row_int_sum_max_kernel", {"x_ptr": "*i32", **ptrs("sum_ptr max_ptr", "i32"), **ints("n_cols stride")},
          {"BLOCK": 1024}, cc=cc, w=w, s=1, div16=("stride",)))
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 8)]:
    add(C(D36, "masked_count_sum_kernel", {"x_ptr": f"*{ty}", "cnt_ptr": "*i32", "sum_ptr": "*fp32", "n": "i32",
                                           "thresh": "fp32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty))
for ty, cc, w in [("fp32", 100, 4), ("bf16", 100, 8), ("fp32", 80, 4)]:
    add(C(D36, "block_absmax_atomic_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*i32", "n": "i32"}, {"BLOCK": 2048},
          cc=cc, w=w, s=1, tag=ty))
for cc, w in [(90, 4), (100, 2)]:
    add(C(D36, "block_xor_and_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 4)]:
    add(C(D36, "persistent_count_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n n_tiles")},
          {"NUM_PROGS": 132, "BLOCK": 1024}, cc=cc, w=w, s=2))

# ---------------------------------------------------------------- c37_blockred.py (helper tslot37, stop 37)
C37 = "c37_blockred"
for ty, cc, w in [("fp16", 80, 4), ("bf16", 90, 8)]:
    add(C(C37, "attn_decode_kernel", {**ptrs("q_ptr k_ptr v_ptr o_ptr", ty), **ints("seq_len stride_k"),
                                      "scale": "fp32"}, {"BLOCK_N": 128, "HEAD": 64}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride_k",)))
for ty, blk, cc, w in [("fp32", 2048, 90, 4), ("fp16", 1024, 80, 2)]:
    add(C(C37, "softmax_temp_stats_kernel", {**ptrs("x_ptr y_ptr", ty), **ptrs("m_ptr d_ptr", "fp32"),
                                             **ints("n_cols stride"), "inv_temp": "fp32"}, {"BLOCK": blk},
          cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 2048, 90, 8), ("fp32", 1024, 100, 4)]:
    add(C(C37, "rms_norm_residual_kernel", {**ptrs("x_ptr r_ptr w_ptr y_ptr", ty), **ints("n_cols stride"),
                                            "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("fp16", 4096, 90, 8)]:
    add(C(C37, "group_stats_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr rstd_ptr", "fp32"), "group_size": "i32",
                                      "eps": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (90, 2)]:
    add(C(C37, "col_max_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_rows n_cols")},
          {"BLOCK_R": 64, "BLOCK_C": 32}, cc=cc, w=w, s=1))
for ty, blk, cc, w in [("fp32", 1024, 80, 4), ("bf16", 2048, 100, 8)]:
    add(C(C37, "masked_lse_bias_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride"),
                                          "bias": "fp32"}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 90, 4)]:
    add(C(C37, "row_cosine_kernel", {**ptrs("a_ptr b_ptr", ty), "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))

# ---------------------------------------------------------------- c37_check_reduce.py (helper tslot37, stop 37)
C37C = "c37_check_reduce"
for ty, blk, cc, w in [("fp16", 2048, 90, 8), ("fp32", 1024, 80, 4)]:
    add(C(C37C, "softmax_bwd_kernel", {**ptrs("y_ptr dy_ptr dx_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 1024, 100, 4), ("fp32", 512, 90, 2)]:
    add(C(C37C, "row_mean_l2_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr norm_ptr", "fp32"),
                                       **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 2048, 80, 8)]:
    add(C(C37C, "minmax_scale_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))

# ---------------------------------------------------------------- e37_scans.py (helper tscan37, stop 37)
E37 = "e37_scans"
for ty, cc, w in [("fp32", 80, 4), ("bf16", 90, 2)]:
    add(C(E37, "ema_scan_kernel", {**ptrs("x_ptr y_ptr", ty), "n": "i32", "alpha": "fp32"}, {"BLOCK": 512},
          cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 2), (100, 4)]:
    add(C(E37, "reverse_cumsum_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_cols stride")}, {"BLOCK": 256},
          cc=cc, w=w, s=1, div16=("stride",)))
add(C(E37, "decay_cumprod_kernel", {"g_ptr": "*fp16", "out_ptr": "*fp32", "n": "i32"}, {"BLOCK": 1024},
      cc=90, w=8, s=1))
add(C(E37, "row_cumsum_total_kernel", {**ptrs("x_ptr y_ptr tot_ptr", "fp32"), **ints("n_rows n_cols")},
      {"BLOCK_R": 8, "BLOCK_C": 32}, cc=80, w=4, s=1))
for cc, w in [(80, 8), (90, 4)]:
    add(C(E37, "top_p_mask_kernel", {**ptrs("p_ptr out_ptr", "fp32"), **ints("n_vocab stride"), "top_p": "fp32"},
          {"BLOCK": 2048}, cc=cc, w=w, s=1, div16=("stride",)))
add(C(E37, "compact_flags_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "cnt_ptr": "*i32", "n": "i32",
                                    "thresh": "fp32"}, {"BLOCK": 512}, cc=90, w=4, s=1))
add(C(E37, "count_offsets_i64_kernel", {"cnt_ptr": "*i32", "off_ptr": "*i64", "n": "i32"}, {"BLOCK": 256},
      cc=80, w=2, s=1))

# ---------------------------------------------------------------- e37_check_scans.py (helper tscan37, stop 37)
E37C = "e37_check_scans"
for cc, w in [(80, 4), (90, 8)]:
    add(C(E37C, "nonzero_index_kernel", {**ptrs("x_ptr idx_ptr cnt_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
add(C(E37C, "bucket_offset_kernel", {**ptrs("k_ptr off_ptr total_ptr", "i32"), **ints("n n_buckets")},
      {"BLOCK": 512}, cc=90, w=4, s=1))
add(C(E37C, "running_max_kernel", {**ptrs("s_ptr y_ptr best_ptr", "fp32"), "n": "i32"}, {"BLOCK": 256},
      cc=80, w=2, s=1))
add(C(E37C, "segmented_sum_kernel", {"f_ptr": "*i8", **ptrs("v_ptr y_ptr", "fp32"), "n": "i32"}, {"BLOCK": 512},
      cc=100, w=4, s=1))

# ---------------------------------------------------------------- f37_atomics.py (helper tconv37, stop 37)
F37 = "f37_atomics"
for cc, w in [(80, 4), (90, 2)]:
    add(C(F37, "emb_bwd_rows_kernel", {**ptrs("grad_ptr gw_ptr", "fp32"), "idx_ptr": "*i64", **ints("n_tok dim")},
          {"BLOCK_D": 512}, cc=cc, w=w, s=1))
add(C(F37, "emb_bwd_scaled_kernel", {**ptrs("grad_ptr scale_ptr gw_ptr", "fp32"), "idx_ptr": "*i32",
                                     **ints("n_tok dim")}, {"BLOCK_T": 16, "BLOCK_D": 64}, cc=80, w=4, s=1))
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 8)]:
    add(C(F37, "layernorm_bwd_dwdb_kernel", {**ptrs("dy_ptr x_ptr", ty), **ptrs("mean_ptr rstd_ptr dw_ptr db_ptr", "fp32"),
                                             **ints("n_cols stride")}, {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, cc, w in [("bf16", 80, 4), ("fp32", 90, 8)]:
    add(C(F37, "rmsnorm_bwd_dw_kernel", {**ptrs("dy_ptr x_ptr w_ptr dx_ptr", ty), "dw_ptr": "*fp32",
                                         **ints("n_cols stride"), "eps": "fp32"}, {"BLOCK": 2048}, cc=cc, w=w, s=1,
          tag=ty, div16=("stride",)))
add(C(F37, "masked_max_keep_kernel", {**ptrs("x_ptr best_ptr old_ptr", "i32"), "n": "i32"}, {"BLOCK": 512},
      cc=80, w=4, s=1))
add(C(F37, "histogram_kernel", {**ptrs("x_ptr hist_ptr", "i32"), **ints("n n_bins")}, {"BLOCK": 1024},
      cc=90, w=4, s=1))
add(C(F37, "splitk_partial_add_kernel", {**ptrs("a_ptr b_ptr", "fp16"), "c_ptr": "*fp32",
                                         **ints("M N K stride_am stride_bk stride_cm")},
      {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 4}, cc=80, w=4, s=2,
      div16=("stride_am", "stride_bk", "stride_cm")))
for cc, w in [(80, 4), (100, 2)]:
    add(C(F37, "row_minmax_atomic_kernel", {**ptrs("x_ptr mn_ptr mx_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": 1024}, cc=cc, w=w, s=1, div16=("stride",)))

# ---------------------------------------------------------------- f37_check_atomics.py (helper tconv37, stop 37)
F37C = "f37_check_atomics"
add(C(F37C, "routed_scatter_add_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ptrs("route_ptr keep_ptr", "i32"),
                                          **ints("n dim")}, {"BLOCK_T": 16, "BLOCK_D": 128}, cc=80, w=4, s=1))
for cc, w in [(80, 4), (90, 8)]:
    add(C(F37C, "segment_max_kernel", {**ptrs("x_ptr seg_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
add(C(F37C, "slot_alloc_kernel", {**ptrs("need_ptr next_ptr slot_ptr", "i32"), "n": "i32"}, {"BLOCK": 256},
      cc=80, w=2, s=1))
add(C(F37C, "splitk_gemv_kernel", {"a_ptr": "*fp16", "x_ptr": "*fp16", "y_ptr": "*fp32", **ints("M K stride_am")},
      {"BLOCK_M": 64, "BLOCK_K": 128, "SPLIT": 4}, cc=90, w=4, s=2, div16=("stride_am",)))

# ---- d37_redatom.py (helper tpers37, stop 37)
D37 = "d37_redatom"
for cc, w in [(80, 4), (90, 8)]:
    add(C(D37, "persist_sum_add_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n n_tiles")},
          {"BLOCK": 1024, "NUM_SMS": 132}, cc=cc, w=w, s=2))
for cc, w in [(80, 2), (100, 4)]:
    add(C(D37, "persist_int_max_relaxed_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n n_tiles")},
          {"BLOCK": 512, "NUM_SMS": 108}, cc=cc, w=w, s=3))
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 4)]:
    add(C(D37, "tile2d_sum_atomic_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_rows n_cols stride")},
          {"BLOCK_R": 16, "BLOCK_C": 64}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, cc, w in [("bf16", 80, 8), ("fp32", 90, 2)]:
    add(C(D37, "block_min_store_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (90, 4)]:
    add(C(D37, "block_sum_ticket_kernel", {**ptrs("x_ptr out_ptr old_ptr", "fp32"), "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
for cc, w in [(80, 8), (90, 4)]:
    add(C(D37, "persist_count_pos_kernel", {"x_ptr": "*fp32", "cnt_ptr": "*i32", **ints("n n_tiles")},
          {"BLOCK": 2048, "NUM_SMS": 132}, cc=cc, w=w, s=2))
for cc, w in [(80, 4), (90, 1)]:
    add(C(D37, "persist_tile_max_store_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n n_tiles")},
          {"BLOCK": 1024, "NUM_SMS": 132}, cc=cc, w=w, s=2))

# ---- d37_check_redatom.py (helper tpers37, stop 37; check kernels written after the rule)
D37C = "d37_check_redatom"
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 8)]:
    add(C(D37C, "check_persist_l1_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n n_tiles")},
          {"BLOCK": 1024, "NUM_SMS": 132}, cc=cc, w=w, s=2, tag=ty))
for cc, w in [(80, 4), (100, 8)]:
    add(C(D37C, "check_block_count_kernel", {"x_ptr": "*fp32", "cnt_ptr": "*i32", "n": "i32", "thresh": "fp32"},
          {"BLOCK": 2048}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 4)]:
    add(C(D37C, "check_persist_tile2d_max_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n_rows n_cols n_tiles")},
          {"BLOCK_R": 8, "BLOCK_C": 128, "NUM_SMS": 132}, cc=cc, w=w, s=2))

# ---- e38_intclose.py (helper tredux38, stop 38)
E38 = "e38_intclose"
for cc, w in [(80, 4), (90, 8)]:
    add(C(E38, "persist_count_above_kernel", {**ptrs("x_ptr", "fp32"), "cnt_ptr": "*i32", "thresh": "fp32",
                                              **ints("n n_tiles")}, {"BLOCK": 1024, "NUM_SMS": 132},
          cc=cc, w=w, s=2))
for cc, w in [(80, 2), (100, 4)]:
    add(C(E38, "persist_int_max_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n n_tiles")},
          {"BLOCK": 512, "NUM_SMS": 108}, cc=cc, w=w, s=3))
for cc, w in [(80, 4), (90, 4)]:
    add(C(E38, "bucket_count_kernel", {**ptrs("k_ptr hist_ptr", "i32"), **ints("bucket n")}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
for cc, w in [(80, 8), (100, 4)]:
    add(C(E38, "block_int_min_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 2048},
          cc=cc, w=w, s=1))
add(C(E38, "block_argmax_idx_kernel", {**ptrs("x_ptr idx_ptr", "i32"), "n": "i32"}, {"BLOCK": 1024},
      cc=90, w=4, s=1))
add(C(E38, "tile_row_int_sum_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n_rows n_cols")},
      {"BLOCK_R": 8, "BLOCK_C": 128}, cc=80, w=4, s=1))
add(C(E38, "persist_xor_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n n_tiles")},
      {"BLOCK": 1024, "NUM_SMS": 132}, cc=90, w=4, s=2))

# ---- e38_check_intclose.py (helper tredux38, stop 38; check kernels written after the rule)
E38C = "e38_check_intclose"
add(C(E38C, "check_persist_mask_count_kernel", {**ptrs("a_ptr b_ptr slot_ptr", "i32"), **ints("n n_tiles")},
      {"BLOCK": 512, "NUM_SMS": 132}, cc=90, w=2, s=2))
add(C(E38C, "check_tile2d_int_max_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("M N")},
      {"BM": 16, "BN": 64}, cc=80, w=8, s=1))
add(C(E38C, "check_diff_min_kernel", {**ptrs("a_ptr b_ptr out_ptr", "i32"), "n": "i32"}, {"BLOCK": 256},
      cc=100, w=2, s=1))
add(C(E38C, "check_persist_tile_max_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n n_tiles")},
      {"BLOCK": 1024}, cc=80, w=4, s=1))

# ---- c38_barbssy.py (helper tbar38, stop 38)
C38 = "c38_barbssy"
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 8)]:
    add(C(C38, "col_sum_atomic_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_rows n_cols stride")},
          {"BLOCK_R": 32, "BLOCK_C": 64}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w in [(80, 2), (100, 4)]:
    add(C(C38, "row_max_guarded_store_kernel", {"x_ptr": "*bf16", "out_ptr": "*fp32", "flag_ptr": "*i32",
                                                  **ints("n_cols stride"), "thresh": "fp32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1, div16=("stride",)))
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 4)]:
    add(C(C38, "transpose_add_kernel", {**ptrs("x_ptr y_ptr", ty), "n": "i32"}, {"BLOCK": 32},
          cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4), (90, 4)]:
    add(C(C38, "splitk_gemm_add_kernel", {"a_ptr": "*fp16", "b_ptr": "*fp16", "c_ptr": "*fp32",
                                            **ints("M N K stride_am stride_bk stride_cm")},
          {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "SPLIT_K": 4}, cc=cc, w=w, s=2,
          div16=("stride_am", "stride_bk", "stride_cm")))
for cc, w in [(80, 4), (90, 2)]:
    add(C(C38, "block_minmax_atomic_kernel", {**ptrs("x_ptr min_ptr max_ptr", "i32"), "n": "i32"}, {"BLOCK": 512},
          cc=cc, w=w, s=1))
for cc, w in [(80, 8), (90, 4)]:
    add(C(C38, "softmax_store_masked_kernel", {"x_ptr": "*fp16", "y_ptr": "*fp16", "lse_ptr": "*fp32",
                                                 **ints("n_cols stride")},
          {"BLOCK": 2048}, cc=cc, w=w, s=1, div16=("stride",)))
for cc, w in [(80, 4), (100, 8)]:
    add(C(C38, "gather_scatter_add_kernel", {"src_ptr": "*fp32", "idx_ptr": "*i32", "dst_ptr": "*fp32",
                                               **ints("n dim")},
          {"BLOCK_N": 32, "BLOCK_D": 64}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 8)]:
    add(C(C38, "xchg_ticket_kernel", {"x_ptr": "*fp32", **ptrs("sum_ptr", "fp32"), **ptrs("ticket_ptr last_ptr", "i32"),
                                        "n": "i32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1))

# ---- c38_check_barbssy.py (helper tbar38, stop 38; check kernels written after the rule)
C38C = "c38_check_barbssy"
for cc, w in [(80, 8), (90, 2)]:
    add(C(C38C, "check_persist_absmax_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n n_tiles")},
          {"BLOCK": 2048, "NUM_SMS": 132}, cc=cc, w=w, s=2))
for cc, w in [(80, 4), (100, 8)]:
    add(C(C38C, "check_tile_count_kernel", {"x_ptr": "*fp32", "cnt_ptr": "*i32", **ints("n_rows n_cols"),
                                              "lo": "fp32", "hi": "fp32"},
          {"BLOCK_R": 16, "BLOCK_C": 128}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 8)]:
    add(C(C38C, "check_row_l2_store_kernel", {"x_ptr": "*bf16", "nrm_ptr": "*fp32", **ints("n_rows n_cols"),
                                                "eps": "fp32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp16", 80, 2), ("fp32", 90, 4)]:
    add(C(C38C, "check_dot_partial_kernel", {**ptrs("a_ptr b_ptr", ty), "out_ptr": "*fp32", "n": "i32"},
          {"CHUNK": 1024}, cc=cc, w=w, s=1, tag=ty))

# ---- d38_scanstore.py (helper tshfl38, stop 38)
D38 = "d38_scanstore"
for cc, w, br in [(80, 4, 16), (90, 2, 8), (100, 8, 32)]:
    add(C(D38, "tile_cumsum_f32_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("n_rows n_cols stride")},
          {"BLOCK_R": br, "BLOCK_C": 32}, cc=cc, w=w, s=1, div16=("stride",)))
for cc, w in [(80, 2), (90, 4)]:
    add(C(D38, "tile_cummax_i32_kernel", {**ptrs("x_ptr y_ptr", "i32"), **ints("n_rows n_cols")},
          {"BLOCK_R": 16, "BLOCK_C": 64}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp16", 80, 4), ("bf16", 90, 2)]:
    add(C(D38, "tile_cumprod_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_rows n_cols")},
          {"BLOCK_R": 8, "BLOCK_C": 64}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(90, 4)]:
    add(C(D38, "tile_cumsum_scaled_kernel", {"x_ptr": "*fp16", "s_ptr": "*fp32", "y_ptr": "*fp32",
          **ints("n_rows n_cols")}, {"BLOCK_R": 16, "BLOCK_C": 32}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 8)]:
    add(C(D38, "tile_row_argmax_kernel", {"x_ptr": f"*{ty}", "idx_ptr": "*i32", **ints("n_rows n_cols")},
          {"BLOCK_R": 8, "BLOCK_C": 128}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 4)]:
    add(C(D38, "tile_row_sum_kernel", {"x_ptr": "*i32", "out_ptr": "*i32", **ints("n_rows n_cols")},
          {"BLOCK_R": 16, "BLOCK_C": 64}, cc=cc, w=w, s=1))

# ---- d38_check_scans.py (helper tshfl38, stop 38; check kernels written after the rule)
D38C = "d38_check_scans"
for ty, cc, w in [("fp16", 90, 2), ("fp32", 80, 4)]:
    add(C(D38C, "check_strided_cummin_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("M N stride_xm stride_ym")},
          {"BM": 32, "BN": 64}, cc=cc, w=w, s=1, tag=ty, div16=("stride_xm", "stride_ym")))
for cc, w in [(80, 2), (100, 4)]:
    add(C(D38C, "check_reverse_cumsum_kernel", {**ptrs("x_ptr y_ptr", "i32"), **ints("M N")},
          {"BM": 16, "BN": 64}, cc=cc, w=w, s=1))
for cc, w in [(90, 2)]:
    add(C(D38C, "check_tiled_rows_cumsum_kernel", {**ptrs("x_ptr y_ptr", "fp32"), **ints("M N")},
          {"BM": 8, "BN": 128}, cc=cc, w=w, s=1))
for cc, w in [(80, 4)]:
    add(C(D38C, "check_pair_scan_kernel", {**ptrs("a_ptr b_ptr out_a_ptr out_b_ptr", "i32"), **ints("M N")},
          {"BM": 16, "BN": 32}, cc=cc, w=w, s=1))

# ---- s39_rowred.py (helper tslot39, stop 39)
S39 = "s39_rowred"
for ty, blk, cc, w in [("fp32", 1024, 90, 4), ("fp16", 2048, 80, 8)]:
    add(C(S39, "row_sumsq_max_kernel", {"x_ptr": f"*{ty}", **ptrs("ss_ptr mx_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("bf16", 1024, 90, 2), ("fp32", 2048, 100, 8)]:
    add(C(S39, "row_meanvar_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr var_ptr", "fp32"), **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 80, 4)]:
    add(C(S39, "looped_lse_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for ty, blk, cc, w in [("fp16", 1024, 90, 4)]:
    add(C(S39, "xent_loss_kernel", {"logit_ptr": f"*{ty}", "tgt_ptr": "*i32", "loss_ptr": "*fp32",
                                    **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 1024, 80, 4)]:
    add(C(S39, "masked_mean_count_kernel", {"x_ptr": f"*{ty}", "valid_ptr": "*i8", "out_ptr": "*fp32",
                                            **ints("n_cols stride")}, {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty,
          div16=("stride",)))
for ty, blk, cc, w in [("fp32", 512, 90, 2)]:
    add(C(S39, "row_min_max_sum_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride")},
          {"BLOCK": blk}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))

# ---- s39_check_xent.py (helper tslot39, stop 39; check kernels written after the rule)
S39C = "s39_check_xent"
for ty, cc, w, bm in [("fp32", 80, 8, 4), ("bf16", 90, 2, 2)]:
    add(C(S39C, "check_tile_nll_kernel", {"x_ptr": f"*{ty}", "t_ptr": "*i64", "out_ptr": "*fp32",
                                          **ints("n_rows n_cols")}, {"BM": bm, "BN": 512}, cc=cc, w=w, s=1, tag=ty))
for ty, cc, w in [("fp16", 90, 8)]:
    add(C(S39C, "check_smooth_ce_kernel", {"x_ptr": f"*{ty}", "t_ptr": "*i32", "out_ptr": "*fp32", "n_cols": "i32",
                                           "eps": "fp32", "ignore_index": "i32"}, {"BLOCK": 2048}, cc=cc, w=w, s=1,
          tag=ty))
for ty, cc, w in [("fp32", 100, 2)]:
    add(C(S39C, "check_onehot_kl_kernel", {"x_ptr": f"*{ty}", "t_ptr": "*i32", "out_ptr": "*fp32", "n_cols": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty))

# ---- f39_shflstore.py (helper tshfl39, stop 39)
F39 = "f39_shflstore"
for cc, w in [(80, 4), (90, 1)]:
    add(C(F39, "block_sum_store_kernel", {**ptrs("x_ptr part_ptr", "fp32"), "n": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(80, 8), (90, 2)]:
    add(C(F39, "block_max_atomic_i32_kernel", {**ptrs("x_ptr out_ptr", "i32"), "n": "i32"},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
for cc, w in [(90, 4)]:
    add(C(F39, "count_above_atomic_kernel", {"x_ptr": "*fp32", "cnt_ptr": "*i32", "n": "i32", "thr": "fp32"},
          {"BLOCK": 2048}, cc=cc, w=w, s=1))
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 2)]:
    add(C(F39, "row_cumsum_kernel", {**ptrs("x_ptr y_ptr", ty), **ints("n_rows n_cols")},
          {"BLOCK_R": 4, "BLOCK_C": 64}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 2)]:
    add(C(F39, "row_sum_store_kernel", {**ptrs("x_ptr s_ptr", "fp32"), **ints("n_rows n_cols")},
          {"BLOCK_R": 8, "BLOCK_C": 64}, cc=cc, w=w, s=1))
for cc, w in [(80, 4)]:
    add(C(F39, "cumsum_total_kernel", {**ptrs("x_ptr y_ptr tot_ptr", "i32"), "n": "i32"},
          {"BLOCK": 256}, cc=cc, w=w, s=1))
for cc, w in [(90, 8)]:
    add(C(F39, "block_absmax_atomic_f32_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "n": "i32"},
          {"BLOCK": 4096}, cc=cc, w=w, s=1))

# ---- f39_check_intreduce.py (helper tshfl39, stop 39; check kernels written after the rule)
F39C = "f39_check_intreduce"
for cc, w in [(80, 2), (90, 4)]:
    add(C(F39C, "check_custom_imax_kernel", {**ptrs("src dst", "i32"), "n": "i32"}, {"BLOCK": 256}, cc=cc, w=w, s=1))
for cc, w in [(90, 2)]:
    add(C(F39C, "check_tile_or_kernel", {**ptrs("src dst", "i32"), **ints("rows cols")},
          {"BR": 8, "BC": 32}, cc=cc, w=w, s=1))
for cc, w in [(80, 2)]:
    add(C(F39C, "check_stride_min_kernel", {**ptrs("src dst", "i32"), "n": "i32"}, {"BLOCK": 512}, cc=cc, w=w, s=1))
for cc, w in [(100, 2)]:
    add(C(F39C, "check_i16_sum_kernel", {"src": "*i16", "dst": "*i32", "n": "i32"}, {"BLOCK": 1024},
          cc=cc, w=w, s=1))
for cc, w in [(80, 2)]:
    add(C(F39C, "check_two_mask_count_kernel", {**ptrs("a b", "fp32"), "cnt": "*i32", "n": "i32"}, {"BLOCK": 256},
          cc=cc, w=w, s=1))
for cc, w in [(90, 4)]:
    add(C(F39C, "check_col_cumsum_kernel", {**ptrs("x y", "i32"), **ints("M N")}, {"BM": 32, "BN": 16},
          cc=cc, w=w, s=1))
for cc, w in [(80, 8)]:
    add(C(F39C, "check_rev_scan_kernel", {**ptrs("x y", "i32"), "n": "i32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1))

# ---- b39_guardbar.py (helper tbssy39, stop 39)
B39 = "b39_guardbar"
for ty, cc, w in [("fp16", 80, 4), ("fp32", 90, 8)]:
    add(C(B39, "row_l2_store_if_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n_cols stride"),
                                           "eps": "fp32"}, {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w in [(80, 2), (100, 4)]:
    add(C(B39, "block_count_atomic_kernel", {"x_ptr": "*fp32", "cnt_ptr": "*i32", "n": "i32", "thresh": "fp32"},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 4)]:
    add(C(B39, "persist_rowmax_store_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n_rows n_cols stride")},
          {"BLOCK": 256}, cc=cc, w=w, s=1, div16=("stride",)))
for cc, w in [(80, 8), (90, 2)]:
    add(C(B39, "persist_sum_atomic_kernel", {**ptrs("x_ptr out_ptr", "fp32"), **ints("n n_tiles")},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (100, 4)]:
    add(C(B39, "col_max_atomic_kernel", {**ptrs("x_ptr out_ptr", "i32"), **ints("n_rows n_cols")},
          {"BLOCK_R": 16, "BLOCK_C": 64}, cc=cc, w=w, s=1))
for ty, cc, w in [("bf16", 80, 4), ("fp32", 90, 1)]:
    add(C(B39, "mean_var_store_kernel", {"x_ptr": f"*{ty}", **ptrs("mean_ptr rstd_ptr", "fp32"),
                                          **ints("n_cols stride"), "eps": "fp32"},
          {"BLOCK": 2048}, cc=cc, w=w, s=1, tag=ty, div16=("stride",)))
for cc, w in [(80, 4), (90, 8)]:
    add(C(B39, "argmin_flag_kernel", {"x_ptr": "*fp32", **ptrs("idx_ptr flag_ptr", "i32"), "n": "i32"},
          {"BLOCK": 1024}, cc=cc, w=w, s=1))
for cc, w in [(80, 4)]:
    add(C(B39, "tile_hist_kernel", {**ptrs("x_ptr hist_ptr", "i32"), "n": "i32"}, {"NBINS": 64, "BLOCK": 1024},
          cc=cc, w=w, s=1))

# ---- b39_check_loopjoin.py (helper tbssy39, stop 39; check kernels written after the rule)
B39C = "b39_check_loopjoin"
for ty, cc, w in [("fp32", 80, 4), ("fp16", 90, 8)]:
    add(C(B39C, "check_range_absmax_kernel", {"x_ptr": f"*{ty}", "out_ptr": "*fp32", **ints("n n_tiles")},
          {"BLOCK": 1024}, cc=cc, w=w, s=1, tag=ty))
for cc, w in [(80, 2), (100, 4)]:
    add(C(B39C, "check_while_sum_count_kernel", {"x_ptr": "*fp32", "sum_ptr": "*fp32", "cnt_ptr": "*i32", "n": "i32"},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 1)]:
    add(C(B39C, "check_rows_store_then_flag_kernel", {**ptrs("x_ptr out_ptr", "fp32"), "flag_ptr": "*i32",
                                                        **ints("n_rows n_cols"), "thr": "fp32"},
          {"BLOCK": 256}, cc=cc, w=w, s=1))
for cc, w in [(80, 4), (90, 2)]:
    add(C(B39C, "check_tile_minmax_i32_kernel", {**ptrs("x_ptr lo_ptr hi_ptr", "i32"), **ints("n n_tiles")},
          {"BLOCK": 512}, cc=cc, w=w, s=1))
