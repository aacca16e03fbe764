; corpus: cpu=sm_90 features=+ptx90
; Floating-point and narrow-type atomics: a gradient scatter-add in half, bfloat, float and double (atomicAdd on
; __half / __nv_bfloat16 / float / double) on global and shared memory with block/device scopes, fmin/fmax on
; every float type (native on sm_90 for f16/bf16, CAS loops otherwise), fsub, and i8/i16 add/max/xchg/cmpxchg that
; AtomicExpand widens into 32-bit CAS loops, in a loop over a CSR row (embedding-bag backward shape).
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sgrad = internal addrspace(3) global [128 x float] undef, align 4
@shalf = internal addrspace(3) global [128 x half] undef, align 2

define ptx_kernel void @embedding_bag_backward(ptr addrspace(1) noalias readonly %rowptr, ptr addrspace(1) noalias readonly %idx,
                                               ptr addrspace(1) noalias readonly %gout, ptr addrspace(1) %gw_f32,
                                               ptr addrspace(1) %gw_f16, ptr addrspace(1) %gw_bf16, ptr addrspace(1) %gw_f64,
                                               i32 %dim) {
entry:
  %bag = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b64 = zext i32 %bag to i64
  %prs = getelementptr inbounds i32, ptr addrspace(1) %rowptr, i64 %b64
  %start = load i32, ptr addrspace(1) %prs, align 4
  %b1 = add nuw i64 %b64, 1
  %pre = getelementptr inbounds i32, ptr addrspace(1) %rowptr, i64 %b1
  %end = load i32, ptr addrspace(1) %pre, align 4
  %oob = icmp uge i32 %tid, %dim
  br i1 %oob, label %exit, label %lg

lg:
  %go = mul i32 %bag, %dim
  %go2 = add i32 %go, %tid
  %go64 = zext i32 %go2 to i64
  %pg = getelementptr inbounds float, ptr addrspace(1) %gout, i64 %go64
  %g = load float, ptr addrspace(1) %pg, align 4
  %gh = fptrunc float %g to half
  %gb = fptrunc float %g to bfloat
  %gd = fpext float %g to double
  %empty = icmp sge i32 %start, %end
  br i1 %empty, label %exit, label %loop

loop:
  %j = phi i32 [ %start, %lg ], [ %j1, %loop ]
  %j64 = sext i32 %j to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %j64
  %row = load i32, ptr addrspace(1) %pi, align 4
  %e = mul i32 %row, %dim
  %e2 = add i32 %e, %tid
  %e64 = zext i32 %e2 to i64
  %pf = getelementptr inbounds float, ptr addrspace(1) %gw_f32, i64 %e64
  %0 = atomicrmw fadd ptr addrspace(1) %pf, float %g syncscope("device") monotonic, align 4
  %ph = getelementptr inbounds half, ptr addrspace(1) %gw_f16, i64 %e64
  %1 = atomicrmw fadd ptr addrspace(1) %ph, half %gh syncscope("device") monotonic, align 2
  %pb = getelementptr inbounds bfloat, ptr addrspace(1) %gw_bf16, i64 %e64
  %2 = atomicrmw fadd ptr addrspace(1) %pb, bfloat %gb syncscope("device") monotonic, align 2
  %pd = getelementptr inbounds double, ptr addrspace(1) %gw_f64, i64 %e64
  %3 = atomicrmw fadd ptr addrspace(1) %pd, double %gd syncscope("device") monotonic, align 8
  %j1 = add nsw i32 %j, 1
  %more = icmp slt i32 %j1, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @float_minmax_shared(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) %res, ptr addrspace(1) noalias %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %slot = and i64 %t64, 127
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %t64
  %v = load float, ptr addrspace(1) %px, align 4
  %vh = fptrunc float %v to half
  %vb = fptrunc float %v to bfloat
  %vd = fpext float %v to double
  %ps = getelementptr inbounds [128 x float], ptr addrspace(3) @sgrad, i64 0, i64 %slot
  %psh = getelementptr inbounds [128 x half], ptr addrspace(3) @shalf, i64 0, i64 %slot
  %s0 = atomicrmw fadd ptr addrspace(3) %ps, float %v syncscope("block") monotonic, align 4
  %s1 = atomicrmw fadd ptr addrspace(3) %psh, half %vh syncscope("block") monotonic, align 2
  %s2 = atomicrmw fmax ptr addrspace(3) %ps, float %v syncscope("block") monotonic, align 4
  %s3 = atomicrmw fmin ptr addrspace(3) %psh, half %vh syncscope("block") acq_rel, align 2
  %s4 = atomicrmw fsub ptr addrspace(3) %ps, float %v syncscope("block") monotonic, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %r0 = getelementptr inbounds float, ptr addrspace(1) %res, i64 0
  %g0 = atomicrmw fmax ptr addrspace(1) %r0, float %v monotonic, align 4
  %r1 = getelementptr inbounds float, ptr addrspace(1) %res, i64 1
  %g1 = atomicrmw fmin ptr addrspace(1) %r1, float %v syncscope("device") release, align 4
  %r2 = getelementptr inbounds half, ptr addrspace(1) %res, i64 4
  %g2 = atomicrmw fmax ptr addrspace(1) %r2, half %vh monotonic, align 2
  %r3 = getelementptr inbounds bfloat, ptr addrspace(1) %res, i64 5
  %g3 = atomicrmw fmin ptr addrspace(1) %r3, bfloat %vb syncscope("device") monotonic, align 2
  %r4 = getelementptr inbounds double, ptr addrspace(1) %res, i64 2
  %g4 = atomicrmw fmax ptr addrspace(1) %r4, double %vd syncscope("device") acquire, align 8
  %r5 = getelementptr inbounds bfloat, ptr addrspace(1) %res, i64 6
  %g5 = atomicrmw fadd ptr addrspace(1) %r5, bfloat %vb seq_cst, align 2
  %r6 = getelementptr inbounds double, ptr addrspace(1) %res, i64 3
  %g6 = atomicrmw fsub ptr addrspace(1) %r6, double %vd monotonic, align 8
  %a = fadd float %s0, %s2
  %b = fadd float %a, %s4
  %c = fadd float %b, %g0
  %d = fadd float %c, %g1
  %h = fadd half %s1, %s3
  %h2 = fadd half %h, %g2
  %hf = fpext half %h2 to float
  %bf = fpext bfloat %g3 to float
  %b5 = fpext bfloat %g5 to float
  %df = fptrunc double %g4 to float
  %d6 = fptrunc double %g6 to float
  %e1 = fadd float %d, %hf
  %e2 = fadd float %e1, %bf
  %e3 = fadd float %e2, %df
  %e4 = fadd float %e3, %b5
  %e5 = fadd float %e4, %d6
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %t64
  store float %e5, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @narrow_int_atomics(ptr addrspace(1) %bytes, ptr addrspace(1) %shorts, ptr addrspace(1) noalias %out, i32 %v) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %i = and i64 %t64, 63
  %pb = getelementptr inbounds i8, ptr addrspace(1) %bytes, i64 %i
  %ps = getelementptr inbounds i16, ptr addrspace(1) %shorts, i64 %i
  %v8 = trunc i32 %v to i8
  %v16 = trunc i32 %v to i16
  %a = atomicrmw add ptr addrspace(1) %pb, i8 1 monotonic, align 1
  %b = atomicrmw umax ptr addrspace(1) %pb, i8 %v8 syncscope("block") monotonic, align 1
  %c = atomicrmw add ptr addrspace(1) %ps, i16 %v16 syncscope("device") acq_rel, align 2
  %d = atomicrmw xchg ptr addrspace(1) %ps, i16 %v16 monotonic, align 2
  %e = atomicrmw min ptr addrspace(1) %ps, i16 %v16 syncscope("device") monotonic, align 2
  %cx = cmpxchg ptr addrspace(1) %ps, i16 %d, i16 %v16 syncscope("device") acquire monotonic, align 2
  %cxv = extractvalue { i16, i1 } %cx, 0
  %cx8 = cmpxchg ptr addrspace(1) %pb, i8 0, i8 %v8 seq_cst seq_cst, align 1
  %cx8v = extractvalue { i8, i1 } %cx8, 0
  %za = zext i8 %a to i32
  %zb = zext i8 %b to i32
  %zc = zext i16 %c to i32
  %ze = sext i16 %e to i32
  %zx = zext i16 %cxv to i32
  %z8 = zext i8 %cx8v to i32
  %s1 = add i32 %za, %zb
  %s2 = add i32 %s1, %zc
  %s3 = add i32 %s2, %ze
  %s4 = add i32 %s3, %zx
  %s5 = add i32 %s4, %z8
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %s5, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
