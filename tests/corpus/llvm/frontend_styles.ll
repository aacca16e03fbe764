; corpus: cpu=sm_75 features=+ptx90
; Shapes other front ends leave in NVPTX IR. Julia (CUDA.jl): i64 indexing from 1, bounds checks that branch to a
; noreturn trap block, sync_threads() as llvm.nvvm.barrier0 and sync_threads_and as barrier0.and, atomic i64
; counters with CUDA.atomic_add!. Rust (nvptx64, core::arch::nvptx): _syncthreads inside a grid-stride loop, an
; index panic lowered to llvm.trap + unreachable, exit from a guard. Triton (lowered TTGIR): dynamic extern shared
; memory [0 x i8], warp reduction with shfl.sync.bfly, cross-warp reduction through shared memory after barrier0,
; predicated stores by tid.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@julia_shmem = internal addrspace(3) global [128 x i64] undef, align 8
@global_smem = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @julia_count_matches(ptr addrspace(1) %a, i64 %alen, ptr addrspace(1) %counter, i64 %needle) {
top:
  %tx = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %bd = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t1 = add nuw nsw i32 %tx, 1
  %t1e = zext i32 %t1 to i64
  %bxe = zext i32 %bx to i64
  %bde = zext i32 %bd to i64
  %off = mul nuw nsw i64 %bxe, %bde
  %i = add nuw nsw i64 %off, %t1e
  %inr = icmp sle i64 %i, %alen
  br i1 %inr, label %L12, label %L40

L12:
  %im1 = add nsw i64 %i, -1
  %ok = icmp ult i64 %im1, %alen
  br i1 %ok, label %L20, label %L16

L16:                                              ; throw_boundserror
  call void @llvm.trap()
  unreachable

L20:
  %p = getelementptr inbounds i64, ptr addrspace(1) %a, i64 %im1
  %v = load i64, ptr addrspace(1) %p, align 8
  %hit = icmp eq i64 %v, %needle
  %hz = zext i1 %hit to i64
  br label %L40

L40:
  %val = phi i64 [ %hz, %L20 ], [ 0, %top ]
  %txe = zext i32 %tx to i64
  %ps = getelementptr inbounds [128 x i64], ptr addrspace(3) @julia_shmem, i64 0, i64 %txe
  store i64 %val, ptr addrspace(3) %ps, align 8
  call void @llvm.nvvm.barrier0()
  %hi = trunc i64 %val to i32
  %allz = call i32 @llvm.nvvm.barrier0.and(i32 %hi)
  %iszero = icmp ne i32 %allz, 0
  %first = icmp eq i32 %tx, 0
  %doit = and i1 %first, %iszero
  br i1 %first, label %L60, label %L90

L60:
  br label %L62

L62:
  %j = phi i64 [ 0, %L60 ], [ %j1, %L62 ]
  %s = phi i64 [ 0, %L60 ], [ %s1, %L62 ]
  %pj = getelementptr inbounds [128 x i64], ptr addrspace(3) @julia_shmem, i64 0, i64 %j
  %x = load i64, ptr addrspace(3) %pj, align 8
  %s1 = add i64 %s, %x
  %j1 = add nuw nsw i64 %j, 1
  %jd = icmp eq i64 %j1, %bde
  br i1 %jd, label %L80, label %L62

L80:
  %old = atomicrmw add ptr addrspace(1) %counter, i64 %s1 seq_cst, align 8
  br label %L90

L90:
  call void @llvm.nvvm.barrier0()
  ret void
}

define ptx_kernel void @rust_grid_stride_scale(ptr addrspace(1) noalias noundef %data, i64 noundef %len, float noundef %k, i32 noundef %rounds) unnamed_addr {
start:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = mul i32 %ctaid, %ntid
  %g = add i32 %b, %tid
  %g64 = zext i32 %g to i64
  %stride32 = mul i32 %nct, %ntid
  %stride = zext i32 %stride32 to i64
  %zero_len = icmp eq i64 %len, 0
  br i1 %zero_len, label %bb_exit, label %bb_rounds

bb_rounds:
  %r = phi i32 [ 0, %start ], [ %r1, %bb_round_end ]
  br label %bb_loop

bb_loop:
  %idx = phi i64 [ %g64, %bb_rounds ], [ %idx1, %bb_body ]
  %inb = icmp ult i64 %idx, %len
  br i1 %inb, label %bb_body, label %bb_round_end

bb_body:
  %p = getelementptr inbounds float, ptr addrspace(1) %data, i64 %idx
  %v = load float, ptr addrspace(1) %p, align 4
  %w = fmul float %v, %k
  store float %w, ptr addrspace(1) %p, align 4
  %idx1 = add i64 %idx, %stride
  br label %bb_loop

bb_round_end:
  tail call void @llvm.nvvm.barrier0()
  %r1 = add i32 %r, 1
  %more = icmp slt i32 %r1, %rounds
  br i1 %more, label %bb_rounds, label %bb_check

bb_check:
  %last = add i64 %len, -1
  %pl = getelementptr inbounds float, ptr addrspace(1) %data, i64 %last
  %lv = load float, ptr addrspace(1) %pl, align 4
  %bad = fcmp uno float %lv, 0.0
  br i1 %bad, label %panic, label %bb_exit

panic:                                            ; core::panicking::panic -> trap on nvptx
  tail call void @llvm.trap()
  unreachable

bb_exit:
  ret void
}

define ptx_kernel void @triton_sum_kernel(ptr addrspace(1) %in_ptr, ptr addrspace(1) %out_ptr, i32 %n_cols) {
  %1 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %2 = and i32 %1, 31
  %3 = lshr i32 %1, 5
  %4 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %5 = mul i32 %4, %n_cols
  %6 = shl i32 %1, 2
  %7 = icmp slt i32 %6, %n_cols
  %8 = add i32 %5, %6
  %9 = sext i32 %8 to i64
  %10 = getelementptr float, ptr addrspace(1) %in_ptr, i64 %9
  br i1 %7, label %ld, label %red

ld:
  %11 = load <4 x float>, ptr addrspace(1) %10, align 16
  %e0 = extractelement <4 x float> %11, i64 0
  %e1 = extractelement <4 x float> %11, i64 1
  %e2 = extractelement <4 x float> %11, i64 2
  %e3 = extractelement <4 x float> %11, i64 3
  %s01 = fadd float %e0, %e1
  %s23 = fadd float %e2, %e3
  %s = fadd float %s01, %s23
  br label %red

red:
  %12 = phi float [ %s, %ld ], [ 0.0, %0 ]
  %13 = bitcast float %12 to i32
  %14 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %13, i32 16, i32 31)
  %15 = bitcast i32 %14 to float
  %16 = fadd float %12, %15
  %17 = bitcast float %16 to i32
  %18 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %17, i32 8, i32 31)
  %19 = bitcast i32 %18 to float
  %20 = fadd float %16, %19
  %21 = bitcast float %20 to i32
  %22 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %21, i32 4, i32 31)
  %23 = bitcast i32 %22 to float
  %24 = fadd float %20, %23
  %25 = bitcast float %24 to i32
  %26 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %25, i32 2, i32 31)
  %27 = bitcast i32 %26 to float
  %28 = fadd float %24, %27
  %29 = bitcast float %28 to i32
  %30 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %29, i32 1, i32 31)
  %31 = bitcast i32 %30 to float
  %32 = fadd float %28, %31
  %33 = icmp eq i32 %2, 0
  %34 = zext i32 %3 to i64
  %35 = getelementptr float, ptr addrspace(3) @global_smem, i64 %34
  br i1 %33, label %st, label %sync

st:
  store float %32, ptr addrspace(3) %35, align 4
  br label %sync

sync:
  tail call void @llvm.nvvm.barrier0()
  %36 = icmp slt i32 %1, 4
  %37 = zext i32 %1 to i64
  %38 = getelementptr float, ptr addrspace(3) @global_smem, i64 %37
  br i1 %36, label %ld2, label %r2

ld2:
  %39 = load float, ptr addrspace(3) %38, align 4
  br label %r2

r2:
  %40 = phi float [ %39, %ld2 ], [ 0.0, %sync ]
  %41 = bitcast float %40 to i32
  %42 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %41, i32 2, i32 31)
  %43 = bitcast i32 %42 to float
  %44 = fadd float %40, %43
  %45 = bitcast float %44 to i32
  %46 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %45, i32 1, i32 31)
  %47 = bitcast i32 %46 to float
  %48 = fadd float %44, %47
  %49 = icmp eq i32 %1, 0
  br i1 %49, label %st2, label %sync2

st2:
  store float %48, ptr addrspace(3) @global_smem, align 4
  br label %sync2

sync2:
  tail call void @llvm.nvvm.barrier0()
  %50 = load float, ptr addrspace(3) @global_smem, align 4
  %51 = sext i32 %4 to i64
  %52 = getelementptr float, ptr addrspace(1) %out_ptr, i64 %51
  br i1 %49, label %st3, label %done

st3:
  store float %50, ptr addrspace(1) %52, align 4
  br label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.and(i32)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare void @llvm.trap()
