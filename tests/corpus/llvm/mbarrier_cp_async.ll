; corpus: cpu=sm_80 features=+ptx90
; sm_80 async copies and mbarriers: cp.async.{ca,cg} 4/8/16-byte copies, commit_group / wait_group / wait_all,
; cp.async.mbarrier.arrive(.noinc), mbarrier.init / arrive / arrive.noComplete / test_wait polling loop.
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x i32] undef, align 16
@tile2 = internal addrspace(3) global [256 x i32] undef, align 16
@bar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @mbarrier_cp_async(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid64 = zext i32 %tid to i64
  %first = icmp eq i32 %tid, 0
  br i1 %first, label %init, label %start

init:
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @bar, i32 %ntid)
  br label %start

start:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ; stage 1: 16-byte copies (cg), one group
  %q = shl i64 %tid64, 2
  %src16 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %q
  %dst16 = getelementptr inbounds i32, ptr addrspace(3) @tile, i64 %q
  %lim = icmp ult i32 %tid, 64
  br i1 %lim, label %copy16, label %copy4

copy16:
  tail call void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3) %dst16, ptr addrspace(1) %src16)
  br label %copy4

copy4:
  tail call void @llvm.nvvm.cp.async.commit.group()
  %src4 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %tid64
  %dst4 = getelementptr inbounds [256 x i32], ptr addrspace(3) @tile2, i64 0, i64 %tid64
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst4, ptr addrspace(1) %src4)
  %h = lshr i64 %tid64, 1
  %h2 = shl i64 %h, 1
  %src8 = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %h2
  %o8 = add i64 %h2, 512
  %src8b = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %o8
  %dst8 = getelementptr inbounds [256 x i32], ptr addrspace(3) @tile, i64 0, i64 %h2
  %even = icmp eq i64 %h2, %tid64
  br i1 %even, label %c8, label %arrive

c8:
  tail call void @llvm.nvvm.cp.async.ca.shared.global.8(ptr addrspace(3) %dst8, ptr addrspace(1) %src8b)
  br label %arrive

arrive:
  tail call void @llvm.nvvm.cp.async.wait.group(i32 1)
  tail call void @llvm.nvvm.cp.async.mbarrier.arrive.shared(ptr addrspace(3) @bar)
  %st = tail call i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3) @bar)
  br label %poll

poll:
  %done = tail call i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3) @bar, i64 %st)
  br i1 %done, label %use, label %poll

use:
  tail call void @llvm.nvvm.cp.async.wait.all()
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %r = sub i64 255, %tid64
  %pa = getelementptr inbounds [256 x i32], ptr addrspace(3) @tile, i64 0, i64 %r
  %pb = getelementptr inbounds [256 x i32], ptr addrspace(3) @tile2, i64 0, i64 %r
  %a = load i32, ptr addrspace(3) %pa, align 4
  %b = load i32, ptr addrspace(3) %pb, align 4
  %s = add i32 %a, %b
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  store i32 %s, ptr addrspace(1) %pout, align 4
  ; second phase: noinc arrive accounted by arrive.noComplete
  tail call void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3) %dst4, ptr addrspace(1) %src4)
  tail call void @llvm.nvvm.cp.async.mbarrier.arrive.noinc.shared(ptr addrspace(3) @bar)
  %st2 = tail call i64 @llvm.nvvm.mbarrier.arrive.noComplete.shared(ptr addrspace(3) @bar, i32 1)
  %pend = tail call i32 @llvm.nvvm.mbarrier.pending.count(i64 %st2)
  %o2 = add i64 %tid64, 256
  %pout2 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o2
  store i32 %pend, ptr addrspace(1) %pout2, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.shared(ptr addrspace(3))
declare i64 @llvm.nvvm.mbarrier.arrive.noComplete.shared(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.test.wait.shared(ptr addrspace(3), i64)
declare i32 @llvm.nvvm.mbarrier.pending.count(i64)
declare void @llvm.nvvm.cp.async.ca.shared.global.4(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.ca.shared.global.8(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.cg.shared.global.16(ptr addrspace(3), ptr addrspace(1))
declare void @llvm.nvvm.cp.async.commit.group()
declare void @llvm.nvvm.cp.async.wait.group(i32 immarg)
declare void @llvm.nvvm.cp.async.wait.all()
declare void @llvm.nvvm.cp.async.mbarrier.arrive.shared(ptr addrspace(3))
declare void @llvm.nvvm.cp.async.mbarrier.arrive.noinc.shared(ptr addrspace(3))
