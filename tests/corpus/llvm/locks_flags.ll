; corpus: cpu=sm_75 features=+ptx90
; Synchronization idioms built from atomics as libcu++ / hand-written CUDA produce them: a spin mutex (cmpxchg
; acquire, nanosleep exponential backoff, release store), a ticket lock (fetch_add + acquire-load spin), message
; passing through a device-scope flag (release store / acquire load loop), a seqlock reader (acquire loads,
; retry while odd or changed) and an old-style volatile mailbox polled in shared memory.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@mailbox = internal addrspace(3) global [2 x i32] undef, align 4

define ptx_kernel void @spin_mutex_backoff(ptr addrspace(1) %lock, ptr addrspace(1) %counter, ptr addrspace(1) %log) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %try, label %done

try:
  %ns = phi i32 [ 8, %entry ], [ %ns2, %backoff ]
  %cx = cmpxchg ptr addrspace(1) %lock, i32 0, i32 1 syncscope("device") acquire monotonic, align 4
  %got = extractvalue { i32, i1 } %cx, 1
  br i1 %got, label %crit, label %backoff

backoff:
  tail call void @llvm.nvvm.nanosleep(i32 %ns)
  %ns1 = shl i32 %ns, 1
  %ns2 = tail call i32 @llvm.umin.i32(i32 %ns1, i32 1024)
  br label %try

crit:
  %c = load i32, ptr addrspace(1) %counter, align 4
  %c1 = add i32 %c, 1
  store i32 %c1, ptr addrspace(1) %counter, align 4
  %c64 = zext i32 %c to i64
  %pl = getelementptr inbounds i32, ptr addrspace(1) %log, i64 %c64
  store i32 %tid, ptr addrspace(1) %pl, align 4
  store atomic i32 0, ptr addrspace(1) %lock syncscope("device") release, align 4
  br label %done

done:
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  ret void
}

define ptx_kernel void @ticket_lock(ptr addrspace(1) %next, ptr addrspace(1) %serving, ptr addrspace(1) %shared_sum, i32 %v) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %take, label %sync

take:
  %my = atomicrmw add ptr addrspace(1) %next, i32 1 syncscope("device") monotonic, align 4
  br label %wait

wait:
  %now = load atomic i32, ptr addrspace(1) %serving syncscope("device") acquire, align 4
  %mine = icmp eq i32 %now, %my
  br i1 %mine, label %crit, label %wait

crit:
  %s = load i32, ptr addrspace(1) %shared_sum, align 4
  %s1 = add i32 %s, %v
  store i32 %s1, ptr addrspace(1) %shared_sum, align 4
  %nx = add i32 %my, 1
  store atomic i32 %nx, ptr addrspace(1) %serving syncscope("device") release, align 4
  br label %sync

sync:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

; block 0 produces, every other block consumes after the flag turns on
define ptx_kernel void @message_passing(ptr addrspace(1) %data, ptr addrspace(1) %flag, ptr addrspace(1) noalias %out) {
entry:
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pd = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %t64
  %prod = icmp eq i32 %ctaid, 0
  br i1 %prod, label %produce, label %consume

produce:
  %val = mul i32 %tid, 3
  store i32 %val, ptr addrspace(1) %pd, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %publish, label %exit

publish:
  store atomic i32 1, ptr addrspace(1) %flag release, align 4
  br label %exit

consume:
  %t0c = icmp eq i32 %tid, 0
  br i1 %t0c, label %poll, label %joined

poll:
  %f = load atomic i32, ptr addrspace(1) %flag acquire, align 4
  %ready = icmp ne i32 %f, 0
  br i1 %ready, label %joined, label %sleep

sleep:
  tail call void @llvm.nvvm.nanosleep(i32 100)
  br label %poll

joined:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %x = load i32, ptr addrspace(1) %pd, align 4
  %ci = mul i32 %ctaid, 256
  %oi = add i32 %ci, %tid
  %o64 = zext i32 %oi to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o64
  store i32 %x, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @seqlock_reader(ptr addrspace(1) %seq, ptr addrspace(1) %payload, ptr addrspace(1) noalias %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pp = getelementptr inbounds i64, ptr addrspace(1) %payload, i64 %t64
  br label %retry

retry:
  %s0 = load atomic i32, ptr addrspace(1) %seq syncscope("device") acquire, align 4
  %odd = and i32 %s0, 1
  %busy = icmp ne i32 %odd, 0
  br i1 %busy, label %retry, label %read

read:
  %v = load atomic i64, ptr addrspace(1) %pp syncscope("device") monotonic, align 8
  fence syncscope("device") acquire
  %s1 = load atomic i32, ptr addrspace(1) %seq syncscope("device") monotonic, align 4
  %same = icmp eq i32 %s0, %s1
  br i1 %same, label %ok, label %retry

ok:
  %po = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %t64
  store i64 %v, ptr addrspace(1) %po, align 8
  ret void
}

define ptx_kernel void @volatile_mailbox(ptr addrspace(1) noalias %out, i32 %rounds) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %w = lshr i32 %tid, 5
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  %p0 = getelementptr inbounds [2 x i32], ptr addrspace(3) @mailbox, i64 0, i64 0
  %p1 = getelementptr inbounds [2 x i32], ptr addrspace(3) @mailbox, i64 0, i64 1
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %s

init:
  store volatile i32 0, ptr addrspace(3) %p0, align 4
  store volatile i32 0, ptr addrspace(3) %p1, align 4
  br label %s

s:
  tail call void @llvm.nvvm.barrier0()
  %w0 = icmp eq i32 %w, 0
  %w1 = icmp eq i32 %w, 1
  %lead0 = and i1 %w0, %l0
  %lead1 = and i1 %w1, %l0
  br i1 %lead0, label %ping, label %c1

ping:
  %r = phi i32 [ 0, %s ], [ %r1, %ping_next ]
  %r1 = add i32 %r, 1
  store volatile i32 %r1, ptr addrspace(3) %p0, align 4
  br label %ping_wait

ping_wait:
  %ack = load volatile i32, ptr addrspace(3) %p1, align 4
  %acked = icmp eq i32 %ack, %r1
  br i1 %acked, label %ping_next, label %ping_wait

ping_next:
  %more = icmp slt i32 %r1, %rounds
  br i1 %more, label %ping, label %fin

c1:
  br i1 %lead1, label %pong, label %fin

pong:
  %q = phi i32 [ 0, %c1 ], [ %m, %pong_ack ]
  br label %pong_wait

pong_wait:
  %m = load volatile i32, ptr addrspace(3) %p0, align 4
  %new = icmp ne i32 %m, %q
  br i1 %new, label %pong_ack, label %pong_wait

pong_ack:
  store volatile i32 %m, ptr addrspace(3) %p1, align 4
  %pm = icmp slt i32 %m, %rounds
  br i1 %pm, label %pong, label %fin

fin:
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %wr, label %ret

wr:
  %fv = load volatile i32, ptr addrspace(3) %p1, align 4
  store i32 %fv, ptr addrspace(1) %out, align 4
  br label %ret

ret:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare void @llvm.nvvm.nanosleep(i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare i32 @llvm.umin.i32(i32, i32)
