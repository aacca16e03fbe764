; corpus: cpu=sm_90 features=+ptx80
; Fresh stop-30 kernels (helper llvm30): ordered and scoped atomics inside loops and conditionals.
; A ring-buffer consumer with an acquire load in a polling loop and a release store of the head, a seq_cst
; per-iteration atomic max on a conditional branch inside a grid-stride loop, a block-scope acq_rel fetch-add
; of a shared work index driving a dynamic loop, and a cluster-scope fence before a flagged store.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@s_next = internal addrspace(3) global i32 0, align 4

define ptx_kernel void @ring_consumer(ptr addrspace(1) %ring, ptr addrspace(1) %head, ptr addrspace(1) %tail, ptr addrspace(1) %out, i32 %count) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k2, %got ]
  %acc = phi i32 [ 0, %entry ], [ %acc2, %got ]
  br label %poll

poll:
  %t = load atomic i32, ptr addrspace(1) %tail syncscope("device") acquire, align 4
  %empty = icmp eq i32 %t, %k
  br i1 %empty, label %poll, label %got

got:
  %slot = and i32 %k, 255
  %se = zext i32 %slot to i64
  %ps = getelementptr inbounds i32, ptr addrspace(1) %ring, i64 %se
  %v = load i32, ptr addrspace(1) %ps, align 4
  %acc2 = add i32 %acc, %v
  %k2 = add i32 %k, 1
  store atomic i32 %k2, ptr addrspace(1) %head syncscope("device") release, align 4
  %more = icmp slt i32 %k2, %count
  br i1 %more, label %loop, label %fin

fin:
  store i32 %acc2, ptr addrspace(1) %out, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @running_max(ptr addrspace(1) %x, ptr addrspace(1) %mx, i32 %n, i32 %thresh) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nb = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %m = mul i32 %bid, %nt
  %s0 = add i32 %m, %tid
  %stride = mul i32 %nt, %nb
  %any = icmp slt i32 %s0, %n
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ %s0, %entry ], [ %i2, %latch ]
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %x, i64 %ie
  %v = load i32, ptr addrspace(1) %p, align 4
  %big = icmp sgt i32 %v, %thresh
  br i1 %big, label %upd, label %latch

upd:
  %o = atomicrmw max ptr addrspace(1) %mx, i32 %v seq_cst, align 4
  br label %latch

latch:
  %i2 = add nsw i32 %i, %stride
  %more = icmp slt i32 %i2, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @dynamic_work(ptr addrspace(1) %tasks, ptr addrspace(1) %out, i32 %ntasks) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %go

init:
  store atomic i32 0, ptr addrspace(3) @s_next syncscope("block") release, align 4
  br label %go

go:
  tail call void @llvm.nvvm.barrier0()
  br label %loop

loop:
  %w = atomicrmw add ptr addrspace(3) @s_next, i32 1 syncscope("block") acq_rel, align 4
  %in = icmp slt i32 %w, %ntasks
  br i1 %in, label %work, label %exit

work:
  %we = sext i32 %w to i64
  %pt = getelementptr inbounds i32, ptr addrspace(1) %tasks, i64 %we
  %tv = load i32, ptr addrspace(1) %pt, align 4
  %r = mul i32 %tv, %tv
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %we
  store i32 %r, ptr addrspace(1) %po, align 4
  br label %loop

exit:
  ret void
}

define ptx_kernel void @cluster_flag_store(ptr addrspace(1) %data, ptr addrspace(1) %flag, i32 %v) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %pd = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %te
  store i32 %v, ptr addrspace(1) %pd, align 4
  %odd = and i32 %tid, 32
  %w1 = icmp ne i32 %odd, 0
  br i1 %w1, label %pub, label %exit

pub:
  fence syncscope("cluster") release
  %o = atomicrmw add ptr addrspace(1) %flag, i32 1 syncscope("cluster") release, align 4
  %first = icmp eq i32 %o, 0
  br i1 %first, label %mark, label %exit

mark:
  fence syncscope("cluster") acq_rel
  store atomic i32 %v, ptr addrspace(1) %data syncscope("cluster") monotonic, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
