; corpus: cpu=sm_80 features=+ptx90
; Asynchronous copy pipelines as MLIR's nvgpu dialect (nvgpu.device_async_copy / create_group / wait) and
; Julia's CUDA.jl pipeline helpers lower them on Ampere: a 3-stage cp.async.cg ring with commit/wait_group(1)
; and barrier0 per k-step, a zero-fill tail copy with the .s (src-size) form, and an mbarrier-tracked stage
; (cp.async.mbarrier.arrive.noinc + mbarrier.arrive + test.wait loop) with init by thread 0 and inval at the end.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@stage_buf = internal addrspace(3) global [3 x [256 x i32]] undef, align 16
@mbar = internal addrspace(3) global [2 x i64] undef, align 8
@tile = internal addrspace(3) global [2 x [128 x float]] undef, align 16

define ptx_kernel void @cp_async_ring3(ptr addrspace(1) %a, ptr addrspace(1) %out, i32 %ktiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t4 = shl i32 %tid, 2
  %t4e = zext i32 %t4 to i64
  %p0 = getelementptr inbounds [3 x [256 x i32]], ptr addrspace(3) @stage_buf, i64 0, i64 0, i64 %t4e
  %g0 = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %t4e
  tail call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %p0, ptr addrspace(1) %g0)
  tail call void @llvm.nvvm.cp.async.commit.group()
  %p1 = getelementptr inbounds [3 x [256 x i32]], ptr addrspace(3) @stage_buf, i64 0, i64 1, i64 %t4e
  %g1 = getelementptr inbounds i32, ptr addrspace(1) %g0, i64 256
  tail call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %p1, ptr addrspace(1) %g1)
  tail call void @llvm.nvvm.cp.async.commit.group()
  %te = zext i32 %tid to i64
  %any = icmp sgt i32 %ktiles, 0
  br i1 %any, label %k, label %fin

k:
  %kk = phi i32 [ 0, %entry ], [ %k1, %k.next ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %k.next ]
  tail call void @llvm.nvvm.cp.async.wait.group(i32 1)
  tail call void @llvm.nvvm.barrier0()
  %st = urem i32 %kk, 3
  %ste = zext i32 %st to i64
  %pr = getelementptr inbounds [3 x [256 x i32]], ptr addrspace(3) @stage_buf, i64 0, i64 %ste, i64 %te
  %x = load i32, ptr addrspace(3) %pr, align 4
  %acc2 = add i32 %acc, %x
  %kn = add i32 %kk, 2
  %pre = icmp slt i32 %kn, %ktiles
  br i1 %pre, label %issue, label %k.next

issue:
  %sn = urem i32 %kn, 3
  %sne = zext i32 %sn to i64
  %pw = getelementptr inbounds [3 x [256 x i32]], ptr addrspace(3) @stage_buf, i64 0, i64 %sne, i64 %t4e
  %kne = zext i32 %kn to i64
  %go = shl nuw nsw i64 %kne, 8
  %gi = add i64 %go, %t4e
  %gp = getelementptr inbounds i32, ptr addrspace(1) %a, i64 %gi
  tail call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %pw, ptr addrspace(1) %gp)
  br label %k.next

k.next:
  tail call void @llvm.nvvm.cp.async.commit.group()
  %k1 = add nuw nsw i32 %kk, 1
  %more = icmp slt i32 %k1, %ktiles
  br i1 %more, label %k, label %fin

fin:
  %r = phi i32 [ 0, %entry ], [ %acc2, %k.next ]
  tail call void @llvm.nvvm.cp.async.wait.all()
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %te
  store i32 %r, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @cp_async_tail_zfill(ptr addrspace(1) %src, ptr addrspace(1) %dst, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base = shl i32 %bid, 7
  %i = add i32 %base, %tid
  %rem = sub i32 %n, %i
  %pos = icmp sgt i32 %rem, 0
  %bytes = select i1 %pos, i32 4, i32 0
  %te = zext i32 %tid to i64
  %ps = getelementptr inbounds [2 x [128 x float]], ptr addrspace(3) @tile, i64 0, i64 0, i64 %te
  %ie = sext i32 %i to i64
  %pg = getelementptr inbounds float, ptr addrspace(1) %src, i64 %ie
  %inb = icmp slt i32 %i, %n
  %safe = select i1 %inb, ptr addrspace(1) %pg, ptr addrspace(1) %src
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4.s(ptr addrspace(3) %ps, ptr addrspace(1) %safe, i32 %bytes)
  tail call void @llvm.nvvm.cp.async.commit.group()
  tail call void @llvm.nvvm.cp.async.wait.group(i32 0)
  tail call void @llvm.nvvm.barrier0()
  %rev = sub i32 127, %tid
  %re = zext i32 %rev to i64
  %pr = getelementptr inbounds [2 x [128 x float]], ptr addrspace(3) @tile, i64 0, i64 0, i64 %re
  %v = load float, ptr addrspace(3) %pr, align 4
  br i1 %inb, label %w, label %x

w:
  %pd = getelementptr inbounds float, ptr addrspace(1) %dst, i64 %ie
  store float %v, ptr addrspace(1) %pd, align 4
  br label %x

x:
  ret void
}

define ptx_kernel void @cp_async_mbarrier_stage(ptr addrspace(1) %src, ptr addrspace(1) %dst, i32 %iters) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t0 = icmp eq i32 %tid, 0
  %mb = getelementptr inbounds [2 x i64], ptr addrspace(3) @mbar, i64 0, i64 0
  br i1 %t0, label %init, label %s

init:
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %mb, i32 %nt)
  br label %s

s:
  tail call void @llvm.nvvm.barrier0()
  %te = zext i32 %tid to i64
  %pt = getelementptr inbounds [2 x [128 x float]], ptr addrspace(3) @tile, i64 0, i64 0, i64 %te
  %any = icmp sgt i32 %iters, 0
  br i1 %any, label %it, label %done

it:
  %k = phi i32 [ 0, %s ], [ %k1, %consume ]
  %ke = zext i32 %k to i64
  %go = shl nuw nsw i64 %ke, 7
  %gi = add i64 %go, %te
  %pg = getelementptr inbounds float, ptr addrspace(1) %src, i64 %gi
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %pt, ptr addrspace(1) %pg)
  tail call void @llvm.nvvm.cp.async.mbarrier.arrive.noinc.shared(ptr addrspace(3) %mb)
  %tok = tail call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) %mb)
  br label %w

w:
  %ok = tail call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) %mb, i64 %tok)
  br i1 %ok, label %consume, label %w

consume:
  %rev = sub i32 127, %tid
  %re = zext i32 %rev to i64
  %pr = getelementptr inbounds [2 x [128 x float]], ptr addrspace(3) @tile, i64 0, i64 0, i64 %re
  %v = load float, ptr addrspace(3) %pr, align 4
  %pd = getelementptr inbounds float, ptr addrspace(1) %dst, i64 %gi
  store float %v, ptr addrspace(1) %pd, align 4
  tail call void @llvm.nvvm.barrier0()
  %k1 = add nuw nsw i32 %k, 1
  %m = icmp slt i32 %k1, %iters
  br i1 %m, label %it, label %done

done:
  br i1 %t0, label %inv, label %ret

inv:
  tail call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) %mb)
  br label %ret

ret:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.ca.shared.global.4.s(ptr addrspace(3), ptr addrspace(1), i32)
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
declare void @llvm.nvvm.cp.async.wait.all()
declare void @llvm.nvvm.cp.async.mbarrier.arrive.noinc.shared(ptr addrspace(3))
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3))
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
