; corpus: cpu=sm_100a features=+ptx90
; sm_100a floating-point warp reductions redux.sync.{min,max}{,.abs}{,.NaN}.f32 in a row-wise softmax-style
; kernel (row max then exp-sum with integer redux on the count), and a partial-mask float redux in a tail branch.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @warp_row_stats(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias %stats, i32 %cols) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %warp = lshr i32 %tid, 5
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %rowb = shl i32 %ctaid, 3
  %row = add i32 %rowb, %warp
  %rowoff = mul i32 %row, %cols
  %has = icmp slt i32 %lane, %cols
  br i1 %has, label %loop, label %red

loop:
  %c = phi i32 [ %lane, %entry ], [ %c1, %loop ]
  %mx = phi float [ 0xFFF0000000000000, %entry ], [ %mx1, %loop ]
  %mn = phi float [ 0x7FF0000000000000, %entry ], [ %mn1, %loop ]
  %cnt = phi i32 [ 0, %entry ], [ %cnt1, %loop ]
  %e = add i32 %rowoff, %c
  %e64 = sext i32 %e to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %e64
  %v = load float, ptr addrspace(1) %p, align 4
  %mx1 = tail call float @llvm.maxnum.f32(float %mx, float %v)
  %mn1 = tail call float @llvm.minnum.f32(float %mn, float %v)
  %cnt1 = add i32 %cnt, 1
  %c1 = add i32 %c, 32
  %more = icmp slt i32 %c1, %cols
  br i1 %more, label %loop, label %red

red:
  %lmx = phi float [ 0xFFF0000000000000, %entry ], [ %mx1, %loop ]
  %lmn = phi float [ 0x7FF0000000000000, %entry ], [ %mn1, %loop ]
  %lcnt = phi i32 [ 0, %entry ], [ %cnt1, %loop ]
  %wmax = tail call float @llvm.nvvm.redux.sync.fmax(float %lmx, i32 -1)
  %wmin = tail call float @llvm.nvvm.redux.sync.fmin(float %lmn, i32 -1)
  %wamax = tail call float @llvm.nvvm.redux.sync.fmax.abs(float %lmx, i32 -1)
  %wamin = tail call float @llvm.nvvm.redux.sync.fmin.abs(float %lmn, i32 -1)
  %wnmax = tail call float @llvm.nvvm.redux.sync.fmax.NaN(float %lmx, i32 -1)
  %wnmin = tail call float @llvm.nvvm.redux.sync.fmin.NaN(float %lmn, i32 -1)
  %wanmax = tail call float @llvm.nvvm.redux.sync.fmax.abs.NaN(float %lmx, i32 -1)
  %wanmin = tail call float @llvm.nvvm.redux.sync.fmin.abs.NaN(float %lmn, i32 -1)
  %wcnt = tail call i32 @llvm.nvvm.redux.sync.add(i32 %lcnt, i32 -1)
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %store, label %tailchk

store:
  %r8 = shl i32 %row, 3
  %r864 = sext i32 %r8 to i64
  %ps = getelementptr inbounds float, ptr addrspace(1) %stats, i64 %r864
  store float %wmax, ptr addrspace(1) %ps, align 4
  %ps1 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 1
  store float %wmin, ptr addrspace(1) %ps1, align 4
  %ps2 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 2
  store float %wamax, ptr addrspace(1) %ps2, align 4
  %ps3 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 3
  store float %wamin, ptr addrspace(1) %ps3, align 4
  %ps4 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 4
  store float %wnmax, ptr addrspace(1) %ps4, align 4
  %ps5 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 5
  store float %wnmin, ptr addrspace(1) %ps5, align 4
  %s6 = fadd float %wanmax, %wanmin
  %ps6 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 6
  store float %s6, ptr addrspace(1) %ps6, align 4
  %cf = uitofp i32 %wcnt to float
  %ps7 = getelementptr inbounds float, ptr addrspace(1) %ps, i64 7
  store float %cf, ptr addrspace(1) %ps7, align 4
  br label %tailchk

tailchk:
  %low = icmp ult i32 %lane, 16
  br i1 %low, label %half, label %exit

half:
  %hm = tail call float @llvm.nvvm.redux.sync.fmax(float %lmx, i32 65535)
  %hmi = tail call float @llvm.nvvm.redux.sync.fmin.NaN(float %lmn, i32 65535)
  %hs = fsub float %hm, %hmi
  %hp = sext i32 %row to i64
  %ph = getelementptr inbounds float, ptr addrspace(1) %stats, i64 %hp
  %lz = icmp eq i32 %lane, 0
  br i1 %lz, label %hst, label %exit

hst:
  store float %hs, ptr addrspace(1) %ph, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare float @llvm.maxnum.f32(float, float)
declare float @llvm.minnum.f32(float, float)
declare float @llvm.nvvm.redux.sync.fmax(float, i32)
declare float @llvm.nvvm.redux.sync.fmin(float, i32)
declare float @llvm.nvvm.redux.sync.fmax.abs(float, i32)
declare float @llvm.nvvm.redux.sync.fmin.abs(float, i32)
declare float @llvm.nvvm.redux.sync.fmax.NaN(float, i32)
declare float @llvm.nvvm.redux.sync.fmin.NaN(float, i32)
declare float @llvm.nvvm.redux.sync.fmax.abs.NaN(float, i32)
declare float @llvm.nvvm.redux.sync.fmin.abs.NaN(float, i32)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
