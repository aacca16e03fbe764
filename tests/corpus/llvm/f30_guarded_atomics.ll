; corpus: cpu=sm_80 features=+ptx80
; Fresh stop-30 kernels (helper llvm30): atomics under conditions and in loops as LLVM front ends emit them.
; A histogram with a bounds-checked device-scope atomicrmw add whose result is unused, a grid-stride loop that
; bumps a per-block shared counter and folds it into a global total under a leader test, a compare-exchange
; max on float bits in a retry loop, a ticket counter whose result decides a last-block epilogue, and an
; atomic xor/or/and sequence on flags in successive ifs.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@blk_count = internal addrspace(3) global i32 0, align 4

define ptx_kernel void @bounded_histogram(ptr addrspace(1) %data, ptr addrspace(1) %hist, i32 %n, i32 %nbins) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %nt
  %i = add i32 %m, %tid
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %body, label %exit

body:
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %ie
  %v = load i32, ptr addrspace(1) %p, align 4
  %inr = icmp ult i32 %v, %nbins
  br i1 %inr, label %bump, label %exit

bump:
  %ve = zext i32 %v to i64
  %h = getelementptr inbounds i32, ptr addrspace(1) %hist, i64 %ve
  %o = atomicrmw add ptr addrspace(1) %h, i32 1 syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @count_matches(ptr addrspace(1) %data, ptr addrspace(1) %total, i32 %n, i32 %key) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nb = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %start

init:
  store i32 0, ptr addrspace(3) @blk_count, align 4
  br label %start

start:
  tail call void @llvm.nvvm.barrier0()
  %m = mul i32 %bid, %nt
  %s0 = add i32 %m, %tid
  %stride = mul i32 %nt, %nb
  %any = icmp slt i32 %s0, %n
  br i1 %any, label %loop, label %done

loop:
  %i = phi i32 [ %s0, %start ], [ %i2, %latch ]
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %ie
  %v = load i32, ptr addrspace(1) %p, align 4
  %hit = icmp eq i32 %v, %key
  br i1 %hit, label %inc, label %latch

inc:
  %o = atomicrmw add ptr addrspace(3) @blk_count, i32 1 syncscope("block") monotonic, align 4
  br label %latch

latch:
  %i2 = add nsw i32 %i, %stride
  %more = icmp slt i32 %i2, %n
  br i1 %more, label %loop, label %done

done:
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %flush, label %exit

flush:
  %c = load i32, ptr addrspace(3) @blk_count, align 4
  %nz = icmp ne i32 %c, 0
  br i1 %nz, label %add, label %exit

add:
  %o2 = atomicrmw add ptr addrspace(1) %total, i32 %c syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @float_atomic_max(ptr addrspace(1) %x, ptr addrspace(1) %res, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %m = mul i32 %bid, %nt
  %i = add i32 %m, %tid
  %ok = icmp slt i32 %i, %n
  br i1 %ok, label %load, label %exit

load:
  %ie = sext i32 %i to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %x, i64 %ie
  %v = load float, ptr addrspace(1) %p, align 4
  %vb = bitcast float %v to i32
  %cur0 = load atomic i32, ptr addrspace(1) %res syncscope("device") monotonic, align 4
  br label %retry

retry:
  %cur = phi i32 [ %cur0, %load ], [ %seen, %again ]
  %cf = bitcast i32 %cur to float
  %gt = fcmp ogt float %v, %cf
  br i1 %gt, label %cas, label %exit

cas:
  %pair = cmpxchg ptr addrspace(1) %res, i32 %cur, i32 %vb syncscope("device") acq_rel monotonic, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %won = extractvalue { i32, i1 } %pair, 1
  br i1 %won, label %exit, label %again

again:
  br label %retry

exit:
  ret void
}

define ptx_kernel void @last_block_epilogue(ptr addrspace(1) %partial, ptr addrspace(1) %ticket, ptr addrspace(1) %out, float %val) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nb = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %publish, label %exit

publish:
  %be = zext i32 %bid to i64
  %pp = getelementptr inbounds float, ptr addrspace(1) %partial, i64 %be
  store float %val, ptr addrspace(1) %pp, align 4
  fence syncscope("device") release
  %t = atomicrmw add ptr addrspace(1) %ticket, i32 1 syncscope("device") acq_rel, align 4
  %last1 = add i32 %nb, -1
  %islast = icmp eq i32 %t, %last1
  br i1 %islast, label %sum, label %exit

sum:
  fence syncscope("device") acquire
  br label %sl

sl:
  %j = phi i32 [ 0, %sum ], [ %j2, %sl ]
  %acc = phi float [ 0.0, %sum ], [ %acc2, %sl ]
  %je = zext i32 %j to i64
  %pj = getelementptr inbounds float, ptr addrspace(1) %partial, i64 %je
  %pv = load volatile float, ptr addrspace(1) %pj, align 4
  %acc2 = fadd float %acc, %pv
  %j2 = add nuw i32 %j, 1
  %c = icmp ult i32 %j2, %nb
  br i1 %c, label %sl, label %fin

fin:
  store float %acc2, ptr addrspace(1) %out, align 4
  store atomic i32 0, ptr addrspace(1) %ticket syncscope("device") release, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @flag_updates(ptr addrspace(1) %flags, ptr addrspace(1) %in, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %te
  %v = load i32, ptr addrspace(1) %pin, align 4
  %odd = and i32 %v, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %setodd, label %next1

setodd:
  %bit = shl i32 1, %tid
  %o1 = atomicrmw or ptr addrspace(1) %flags, i32 %bit syncscope("device") monotonic, align 4
  br label %next1

next1:
  %neg = icmp slt i32 %v, 0
  br i1 %neg, label %clr, label %next2

clr:
  %f1 = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 1
  %msk = xor i32 %v, -1
  %o2 = atomicrmw and ptr addrspace(1) %f1, i32 %msk syncscope("device") monotonic, align 4
  br label %next2

next2:
  %big = icmp sgt i32 %v, %n
  br i1 %big, label %tog, label %exit

tog:
  %f2 = getelementptr inbounds i32, ptr addrspace(1) %flags, i64 2
  %o3 = atomicrmw xor ptr addrspace(1) %f2, i32 %v syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier0()
