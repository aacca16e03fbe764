; corpus: cpu=sm_75 features=+ptx90
; CUDA.jl-style kernels as Julia's GPUCompiler leaves them after optimization: 1-based i64 indices, bounds checks
; that branch to a noreturn trap block, sync_threads() as llvm.nvvm.barrier0, shfl_up_sync/shfl_down_sync with a
; full mask (0xffffffff) on Float32 and Int32 inside an unrolled-then-looped warp scan, and CUDA.atomic_add! on
; shared Int32 counters (a per-block histogram merged into global memory after the barrier).
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@__static_shmem_warp_sums = internal addrspace(3) global [32 x float] undef, align 4
@__static_shmem_hist = internal addrspace(3) global [256 x i32] undef, align 4

define ptx_kernel void @julia_block_inclusive_scan(ptr addrspace(1) %out, ptr addrspace(1) %inp, i64 %n) {
top:
  %tx = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tx1 = add nuw nsw i32 %tx, 1
  %bxe = zext i32 %bx to i64
  %bde = zext i32 %bd to i64
  %tx1e = zext i32 %tx1 to i64
  %base = mul nuw nsw i64 %bxe, %bde
  %i = add nuw nsw i64 %base, %tx1e
  %lane = and i32 %tx, 31
  %wid = lshr i32 %tx, 5
  %inb = icmp sle i64 %i, %n
  br i1 %inb, label %L14, label %L22

L14:
  %im1 = add nsw i64 %i, -1
  %ok = icmp ult i64 %im1, %n
  br i1 %ok, label %L18, label %L16

L16:
  call void @llvm.trap()
  unreachable

L18:
  %pin = getelementptr inbounds float, ptr addrspace(1) %inp, i64 %im1
  %x = load float, ptr addrspace(1) %pin, align 4
  br label %L22

L22:
  %v0 = phi float [ %x, %L18 ], [ 0.000000e+00, %top ]
  br label %L30

L30:                                              ; for offset in (1, 2, 4, 8, 16)
  %off = phi i32 [ 1, %L22 ], [ %off2, %L38 ]
  %v = phi float [ %v0, %L22 ], [ %v2, %L38 ]
  %up = tail call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %v, i32 %off, i32 0)
  %take = icmp uge i32 %lane, %off
  br i1 %take, label %L34, label %L38

L34:
  %vs = fadd float %v, %up
  br label %L38

L38:
  %v2 = phi float [ %vs, %L34 ], [ %v, %L30 ]
  %off2 = shl i32 %off, 1
  %more = icmp ult i32 %off2, 32
  br i1 %more, label %L30, label %L44

L44:
  %islast = icmp eq i32 %lane, 31
  br i1 %islast, label %L46, label %L50

L46:
  %wide = zext i32 %wid to i64
  %pw = getelementptr inbounds [32 x float], ptr addrspace(3) @__static_shmem_warp_sums, i64 0, i64 %wide
  store float %v2, ptr addrspace(3) %pw, align 4
  br label %L50

L50:
  call void @llvm.nvvm.barrier0()
  %w0 = icmp eq i32 %wid, 0
  br i1 %w0, label %L54, label %L70

L54:
  %lanee = zext i32 %lane to i64
  %pl = getelementptr inbounds [32 x float], ptr addrspace(3) @__static_shmem_warp_sums, i64 0, i64 %lanee
  %s0 = load float, ptr addrspace(3) %pl, align 4
  br label %L56

L56:
  %o = phi i32 [ 1, %L54 ], [ %o2, %L56 ]
  %s = phi float [ %s0, %L54 ], [ %s2, %L56 ]
  %su = tail call float @llvm.nvvm.shfl.sync.up.f32(i32 -1, float %s, i32 %o, i32 0)
  %tk = icmp uge i32 %lane, %o
  %sa = fadd float %s, %su
  %s2 = select i1 %tk, float %sa, float %s
  %o2 = shl i32 %o, 1
  %m2 = icmp ult i32 %o2, 32
  br i1 %m2, label %L56, label %L62

L62:
  store float %s2, ptr addrspace(3) %pl, align 4
  br label %L70

L70:
  call void @llvm.nvvm.barrier0()
  %hasprev = icmp ugt i32 %wid, 0
  br i1 %hasprev, label %L72, label %L80

L72:
  %wm1 = add nsw i32 %wid, -1
  %wm1e = zext i32 %wm1 to i64
  %pp = getelementptr inbounds [32 x float], ptr addrspace(3) @__static_shmem_warp_sums, i64 0, i64 %wm1e
  %pre = load float, ptr addrspace(3) %pp, align 4
  %vf = fadd float %v2, %pre
  br label %L80

L80:
  %res = phi float [ %vf, %L72 ], [ %v2, %L70 ]
  br i1 %inb, label %L84, label %L90

L84:
  %im1b = add nsw i64 %i, -1
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %im1b
  store float %res, ptr addrspace(1) %po, align 4
  br label %L90

L90:
  ret void
}

define ptx_kernel void @julia_histogram256(ptr addrspace(1) %hist, ptr addrspace(1) %data, i64 %n) {
top:
  %tx = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %gd = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %txe = zext i32 %tx to i64
  %ph = getelementptr inbounds [256 x i32], ptr addrspace(3) @__static_shmem_hist, i64 0, i64 %txe
  %small = icmp ult i32 %tx, 256
  br i1 %small, label %L8, label %L10

L8:
  store i32 0, ptr addrspace(3) %ph, align 4
  br label %L10

L10:
  call void @llvm.nvvm.barrier0()
  %bxe = zext i32 %bx to i64
  %bde = zext i32 %bd to i64
  %gde = zext i32 %gd to i64
  %stride = mul nuw nsw i64 %bde, %gde
  %start0 = mul nuw nsw i64 %bxe, %bde
  %start = add nuw nsw i64 %start0, %txe
  %any = icmp slt i64 %start, %n
  br i1 %any, label %L20, label %L40

L20:
  %k = phi i64 [ %start, %L10 ], [ %k2, %L20 ]
  %pd = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %k
  %byte = load i8, ptr addrspace(1) %pd, align 1
  %bin = zext i8 %byte to i64
  %pb = getelementptr inbounds [256 x i32], ptr addrspace(3) @__static_shmem_hist, i64 0, i64 %bin
  %old = atomicrmw add ptr addrspace(3) %pb, i32 1 seq_cst, align 4
  %k2 = add i64 %k, %stride
  %c = icmp slt i64 %k2, %n
  br i1 %c, label %L20, label %L40

L40:
  call void @llvm.nvvm.barrier0()
  br i1 %small, label %L44, label %L52

L44:
  %cnt = load i32, ptr addrspace(3) %ph, align 4
  %nz = icmp ne i32 %cnt, 0
  br i1 %nz, label %L48, label %L52

L48:
  %pg = getelementptr inbounds i32, ptr addrspace(1) %hist, i64 %txe
  %o2 = atomicrmw add ptr addrspace(1) %pg, i32 %cnt seq_cst, align 4
  br label %L52

L52:
  ret void
}

define ptx_kernel void @julia_warp_reduce_int(ptr addrspace(1) %out, ptr addrspace(1) %inp) {
top:
  %tx = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %txe = zext i32 %tx to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %inp, i64 %txe
  %v0 = load i32, ptr addrspace(1) %p, align 4
  %d16 = tail call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v0, i32 16, i32 31)
  %v1 = add i32 %v0, %d16
  %d8 = tail call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v1, i32 8, i32 31)
  %v2 = add i32 %v1, %d8
  %d4 = tail call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v2, i32 4, i32 31)
  %v3 = add i32 %v2, %d4
  %d2 = tail call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v3, i32 2, i32 31)
  %v4 = add i32 %v3, %d2
  %d1 = tail call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v4, i32 1, i32 31)
  %v5 = add i32 %v4, %d1
  %lane = and i32 %tx, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %L9, label %L12

L9:
  %o = atomicrmw add ptr addrspace(1) %out, i32 %v5 monotonic, align 4
  br label %L12

L12:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.trap()
declare float @llvm.nvvm.shfl.sync.up.f32(i32, float, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)
