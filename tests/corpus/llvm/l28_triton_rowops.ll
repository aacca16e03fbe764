; corpus: cpu=sm_80 features=+ptx90
; MLIR/Triton-style LLVM IR (as convert-triton-gpu-to-llvm leaves it): external dynamic shared memory
; @global_smem [0 x i8], masked loads/stores written as predicated inline PTX (`@$2 ld.global.b32`), warp
; reductions as butterfly shfl.sync.bfly.f32 with a full mask, cross-warp exchange through shared memory
; between llvm.nvvm.barrier.cta.sync.aligned.all(0), a row softmax, an argmax with (value, index) pairs, and an
; atomic_add epilogue with a scalar-program-id guard (atomicrmw fadd monotonic, syncscope "device" default).
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @softmax_kernel(ptr addrspace(1) %out, ptr addrspace(1) %inp, i32 %stride, i32 %ncols) {
  %pid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  %row = mul i32 %pid, %stride
  %rowe = sext i32 %row to i64
  %prow = getelementptr float, ptr addrspace(1) %inp, i64 %rowe
  %col = shl i32 %tid, 2
  %cole = zext i32 %col to i64
  %pin = getelementptr float, ptr addrspace(1) %prow, i64 %cole
  %mask = icmp slt i32 %col, %ncols
  %ld = tail call { i32, i32, i32, i32 } asm sideeffect "mov.u32 $0, 0xff800000;\0A\09mov.u32 $1, 0xff800000;\0A\09mov.u32 $2, 0xff800000;\0A\09mov.u32 $3, 0xff800000;\0A\09@$5 ld.global.v4.b32 { $0, $1, $2, $3 }, [ $4 + 0 ];", "=r,=r,=r,=r,l,b"(ptr addrspace(1) %pin, i1 %mask)
  %r0 = extractvalue { i32, i32, i32, i32 } %ld, 0
  %r1 = extractvalue { i32, i32, i32, i32 } %ld, 1
  %r2 = extractvalue { i32, i32, i32, i32 } %ld, 2
  %r3 = extractvalue { i32, i32, i32, i32 } %ld, 3
  %f0 = bitcast i32 %r0 to float
  %f1 = bitcast i32 %r1 to float
  %f2 = bitcast i32 %r2 to float
  %f3 = bitcast i32 %r3 to float
  %m01 = tail call float @llvm.maxnum.f32(float %f0, float %f1)
  %m23 = tail call float @llvm.maxnum.f32(float %f2, float %f3)
  %m = tail call float @llvm.maxnum.f32(float %m01, float %m23)
  %x16 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %m, i32 16, i32 31)
  %a16 = tail call float @llvm.maxnum.f32(float %m, float %x16)
  %x8 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %a16, i32 8, i32 31)
  %a8 = tail call float @llvm.maxnum.f32(float %a16, float %x8)
  %x4 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %a8, i32 4, i32 31)
  %a4 = tail call float @llvm.maxnum.f32(float %a8, float %x4)
  %x2 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %a4, i32 2, i32 31)
  %a2 = tail call float @llvm.maxnum.f32(float %a4, float %x2)
  %x1 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %a2, i32 1, i32 31)
  %a1 = tail call float @llvm.maxnum.f32(float %a2, float %x1)
  %wofs = shl i32 %warp, 2
  %wofse = zext i32 %wofs to i64
  %psw = getelementptr i8, ptr addrspace(3) @global_smem, i64 %wofse
  %l0 = icmp eq i32 %lane, 0
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) %psw, float %a1, i1 %l0)
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %lofs = shl i32 %lane, 2
  %lofse = zext i32 %lofs to i64
  %psl = getelementptr i8, ptr addrspace(3) @global_smem, i64 %lofse
  %lt4 = icmp ult i32 %tid, 4
  %wl = tail call float asm sideeffect "mov.u32 $0, 0xff800000;\0A\09@$2 ld.shared.b32 $0, [ $1 + 0 ];", "=r,r,b"(ptr addrspace(3) %psl, i1 %lt4)
  %y2 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %wl, i32 2, i32 31)
  %b2 = tail call float @llvm.maxnum.f32(float %wl, float %y2)
  %y1 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %b2, i32 1, i32 31)
  %b1 = tail call float @llvm.maxnum.f32(float %b2, float %y1)
  %wr0 = icmp eq i32 %tid, 0
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) @global_smem, float %b1, i1 %wr0)
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %rmax = load float, ptr addrspace(3) @global_smem, align 16
  %e0a = fsub float %f0, %rmax
  %e1a = fsub float %f1, %rmax
  %e2a = fsub float %f2, %rmax
  %e3a = fsub float %f3, %rmax
  %e0 = tail call float @llvm.nvvm.ex2.approx.f(float %e0a)
  %e1 = tail call float @llvm.nvvm.ex2.approx.f(float %e1a)
  %e2 = tail call float @llvm.nvvm.ex2.approx.f(float %e2a)
  %e3 = tail call float @llvm.nvvm.ex2.approx.f(float %e3a)
  %s01 = fadd float %e0, %e1
  %s23 = fadd float %e2, %e3
  %s = fadd float %s01, %s23
  %z16 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %s, i32 16, i32 31)
  %t16 = fadd float %s, %z16
  %z8 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t16, i32 8, i32 31)
  %t8 = fadd float %t16, %z8
  %z4 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t8, i32 4, i32 31)
  %t4 = fadd float %t8, %z4
  %z2 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t4, i32 2, i32 31)
  %t2 = fadd float %t4, %z2
  %z1 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %t2, i32 1, i32 31)
  %t1 = fadd float %t2, %z1
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  tail call void asm sideeffect "@$2 st.shared.b32 [ $0 + 0 ], $1;", "r,r,b"(ptr addrspace(3) %psw, float %t1, i1 %l0)
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %ws = tail call float asm sideeffect "mov.u32 $0, 0x0;\0A\09@$2 ld.shared.b32 $0, [ $1 + 0 ];", "=r,r,b"(ptr addrspace(3) %psl, i1 %lt4)
  %w2 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %ws, i32 2, i32 31)
  %u2 = fadd float %ws, %w2
  %w1 = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %u2, i32 1, i32 31)
  %u1 = fadd float %u2, %w1
  %inv = fdiv float 1.000000e+00, %u1
  %o0 = fmul float %e0, %inv
  %o1 = fmul float %e1, %inv
  %o2 = fmul float %e2, %inv
  %o3 = fmul float %e3, %inv
  %pout = getelementptr float, ptr addrspace(1) %out, i64 %rowe
  %po = getelementptr float, ptr addrspace(1) %pout, i64 %cole
  %i0 = bitcast float %o0 to i32
  %i1 = bitcast float %o1 to i32
  %i2 = bitcast float %o2 to i32
  %i3 = bitcast float %o3 to i32
  tail call void asm sideeffect "@$5 st.global.v4.b32 [ $4 + 0 ], { $0, $1, $2, $3 };", "r,r,r,r,l,b"(i32 %i0, i32 %i1, i32 %i2, i32 %i3, ptr addrspace(1) %po, i1 %mask)
  ret void
}

define ptx_kernel void @argmax_atomic_kernel(ptr addrspace(1) %inp, ptr addrspace(1) %best, ptr addrspace(1) %lock, ptr addrspace(1) %total, i32 %n) {
  %pid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = shl i32 %pid, 7
  %idx = add i32 %base, %tid
  %idxe = sext i32 %idx to i64
  %p = getelementptr float, ptr addrspace(1) %inp, i64 %idxe
  %mask = icmp slt i32 %idx, %n
  %v = tail call float asm sideeffect "mov.u32 $0, 0xff800000;\0A\09@$2 ld.global.b32 $0, [ $1 + 0 ];", "=r,l,b"(ptr addrspace(1) %p, i1 %mask)
  br label %red

red:
  %off = phi i32 [ 16, %0 ], [ %off2, %red ]
  %bv = phi float [ %v, %0 ], [ %nv, %red ]
  %bi = phi i32 [ %idx, %0 ], [ %ni, %red ]
  %ov = tail call float @llvm.nvvm.shfl.sync.bfly.f32(i32 -1, float %bv, i32 %off, i32 31)
  %oi = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %bi, i32 %off, i32 31)
  %gt = fcmp ogt float %ov, %bv
  %eq = fcmp oeq float %ov, %bv
  %lti = icmp slt i32 %oi, %bi
  %tie = and i1 %eq, %lti
  %take = or i1 %gt, %tie
  %nv = select i1 %take, float %ov, float %bv
  %ni = select i1 %take, i32 %oi, i32 %bi
  %off2 = lshr i32 %off, 1
  %more = icmp ne i32 %off2, 0
  br i1 %more, label %red, label %fin

fin:
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %acquire, label %sum

acquire:
  %c = cmpxchg ptr addrspace(1) %lock, i32 0, i32 1 acquire monotonic, align 4
  %got = extractvalue { i32, i1 } %c, 1
  br i1 %got, label %crit, label %acquire

crit:
  %cur = load float, ptr addrspace(1) %best, align 4
  %better = fcmp ogt float %nv, %cur
  br i1 %better, label %upd, label %unlock

upd:
  store float %nv, ptr addrspace(1) %best, align 4
  %pbi = getelementptr i32, ptr addrspace(1) %best, i64 1
  store i32 %ni, ptr addrspace(1) %pbi, align 4
  br label %unlock

unlock:
  %x = atomicrmw xchg ptr addrspace(1) %lock, i32 0 release, align 4
  br label %sum

sum:
  %z = select i1 %mask, float %v, float 0.000000e+00
  %old = atomicrmw fadd ptr addrspace(1) %total, float %z monotonic, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare float @llvm.nvvm.shfl.sync.bfly.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.nvvm.ex2.approx.f(float)
