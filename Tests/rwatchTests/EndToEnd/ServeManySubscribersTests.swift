import Glibc
import Testing
import TestSupport

/// One root, 100 pywatchman subscribers and one client that subscribes
/// and then reads nothing, while 10,000 files appear: every reading
/// subscriber gets every file, and the one that reads nothing holds
/// nobody up. (Its cut-off at the queue bound is `SubscriptionFlowTests`',
/// with a small bound.)
@Suite struct ServeManySubscribersTests {
    static let required = ServeClientTests.required
    static let python = ServeClientTests.python
    static let hasPywatchman = ServeClientTests.hasPywatchman

    private static let script = #"""
    import os, selectors, sys, time, pywatchman
    root, count = sys.argv[1], int(sys.argv[2])
    def client():
        return pywatchman.client(timeout=120)
    clients = [client() for _ in range(100)]
    clients[0].query("watch", root)
    for c in clients:
        c.query("subscribe", root, "s", {"fields": ["name"], "expression": ["type", "f"]})
    lazy = client()
    lazy.query("subscribe", root, "lazy", {"fields": ["name"]})
    selector = selectors.DefaultSelector()
    for index, c in enumerate(clients):
        selector.register(c.recvConn.transport.sock, selectors.EVENT_READ, index)
    seen = [set() for _ in clients]
    for d in range(100):
        os.mkdir(os.path.join(root, "d%d" % d))
        for f in range(count // 100):
            open(os.path.join(root, "d%d" % d, "f%d" % f), "w").close()
    wanted = {"d%d/f%d" % (d, f) for d in range(100) for f in range(count // 100)}
    deadline = time.time() + 120
    while any(len(s) < len(wanted) for s in seen):
        if time.time() > deadline:
            raise SystemExit("missing: %r" % sorted(len(wanted - s) for s in seen)[-5:])
        for key, _ in selector.select(timeout=1):
            c = clients[key.data]
            c.receive()
            for pdu in c.getSubscription("s") or []:
                seen[key.data].update(pdu.get("files") or [])
    assert all(s == wanted for s in seen)
    print("ok")
    """#

    @Test(.enabled(if: required || hasPywatchman)) func everySubscriberGetsEveryFileAndAClientThatReadsNothingHoldsNobodyUp() {
        let served = ServedRoot()
        let run = served.python(Self.script, [served.root, "10000"])
        #expect(run.output == "ok\n", "\(run.errors)")
        #expect(served.stop() == 0)
    }
}
