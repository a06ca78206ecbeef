import Glibc
import Testing
import TestSupport

/// `rwatch serve` driven by Node's fb-watchman, the client Jest and Metro
/// use (BSER v1 only), asking what Jest's haste map asks: a capability
/// check, `watch-project` of a directory below the project, a crawl by
/// glob with content hashes, a subscription relative to that directory,
/// and a second crawl `since` the first. Debian's `node-sane` carries
/// fb-watchman; `make test` installs it.
@Suite struct ServeNodeClientTests {
    static let required = ServeClientTests.required
    /// Where Debian puts its Node modules; NodeSource's node does not look
    /// there by itself.
    static let environment = ["NODE_PATH": "/usr/share/nodejs"]
    static let hasFBWatchman = Command.run(["node", "-e", "require('fb-watchman')"], environment: environment).status == 0

    /// Builds a project under argv[2] (2,000 generated modules, so that a
    /// crawl's answer spans many reads), then asks what Jest asks; prints
    /// `ok` when every answer was right.
    private static let script = #"""
    const assert = require('assert').strict;
    const crypto = require('crypto');
    const fs = require('fs');
    const path = require('path');
    const watchman = require('fb-watchman');

    const fail = (error) => { console.error((error && error.stack) || error); process.exit(1); };
    setTimeout(() => fail('no answer in 60 s'), 60000).unref();
    const root = fs.realpathSync(process.argv[2]);
    const write = (name, text) => {
      fs.mkdirSync(path.dirname(path.join(root, name)), {recursive: true});
      fs.writeFileSync(path.join(root, name), text);
    };
    const sha1 = (bytes) => crypto.createHash('sha1').update(bytes).digest('hex');
    fs.mkdirSync(path.join(root, '.git'));
    const generated = [];
    for (let i = 0; i < 2000; i++) {
      const name = `src/generated/module-${String(i).padStart(4, '0')}.js`;
      write(name, `module.exports = ${i};\n`);
      generated.push(name);
    }
    for (const name of ['src/a.js', 'src/lib/b.js', 'src/.hidden/c.js', 'src/data.json', 'src/readme.md', 'other/x.js']) {
      write(name, name);
    }

    const client = new watchman.Client();
    client.on('error', fail);
    const command = (...args) => new Promise((resolve, reject) =>
      client.command(args, (error, reply) => (error ? reject(error) : resolve(reply))));

    async function main() {
      const checked = await new Promise((resolve, reject) => client.capabilityCheck(
        {optional: ['suffix-set', 'wildmatch', 'relative_root'], required: ['cmd-watch-project']},
        (error, reply) => (error ? reject(error) : resolve(reply))));
      assert.deepEqual(checked.capabilities,
        {'suffix-set': true, wildmatch: true, relative_root: true, 'cmd-watch-project': true});
      assert.ok((await command('list-capabilities')).capabilities.includes('field-content.sha1hex'));

      const project = await command('watch-project', path.join(root, 'src'));
      assert.equal(project.watch, root);
      assert.equal(project.relative_path, 'src');

      // Jest's crawl: files of its extensions below its directory, by glob.
      const fields = ['name', 'exists', 'mtime_ms', 'size', 'content.sha1hex'];
      const expression = ['allof', ['type', 'f'], ['suffix', ['js', 'json']], ['anyof', ['dirname', 'src']]];
      const crawl = await command('query', root,
        {expression, fields, glob: ['src/**/*.js', 'src/**/*.json'], glob_includedotfiles: true});
      assert.deepEqual(crawl.files.map((f) => f.name).sort(),
        [...generated, 'src/.hidden/c.js', 'src/a.js', 'src/data.json', 'src/lib/b.js'].sort());
      for (const file of crawl.files) {
        const bytes = fs.readFileSync(path.join(root, file.name));
        // In nanoseconds: the float mtimeMs rounds x.9999999 ms up.
        const stat = fs.statSync(path.join(root, file.name), {bigint: true});
        assert.equal(file.exists, true);
        assert.equal(Number(file.size), bytes.length, file.name);
        assert.equal(Number(file.mtime_ms), Number(stat.mtimeNs / 1000000n), file.name);
        assert.equal(file['content.sha1hex'], sha1(bytes), file.name);
      }

      // Jest's watcher: a clock, then a subscription relative to its directory.
      const {clock} = await command('clock', root);
      const seen = new Map();
      const last = new Promise((resolve) => client.on('subscription', (pdu) => {
        if (pdu.subscription !== 'jest') return;
        for (const file of pdu.files || []) seen.set(file.name, file);
        if (seen.has('zz-last.js')) resolve();
      }));
      await command('subscribe', root, 'jest', {
        since: clock, relative_root: 'src', fields: ['name', 'exists', 'new'],
        expression: ['anyof', ['match', '**/*.js', 'wholename', {includedotfiles: false}]],
      });
      write('src/a.js', 'changed');
      write('src/new.js', 'new');
      fs.unlinkSync(path.join(root, 'src/lib/b.js'));
      write('src/.hidden/d.js', 'hidden');
      write('src/notes.md', 'not a module');
      write('other/y.js', 'outside');
      write('src/zz-last.js', 'last');
      await last;
      assert.deepEqual([...seen.keys()].sort(), ['a.js', 'lib/b.js', 'new.js', 'zz-last.js']);
      assert.deepEqual(seen.get('a.js'), {name: 'a.js', exists: true, new: false});
      assert.deepEqual(seen.get('new.js'), {name: 'new.js', exists: true, new: true});
      assert.equal(seen.get('lib/b.js').exists, false);
      await command('unsubscribe', root, 'jest');

      // Jest's next start: only what changed since the first crawl.
      const next = await command('query', root, {expression, fields, since: crawl.clock});
      assert.equal(next.is_fresh_instance, false);
      const changed = new Map(next.files.map((f) => [f.name, f]));
      assert.deepEqual([...changed.keys()].sort(),
        ['src/.hidden/d.js', 'src/a.js', 'src/lib/b.js', 'src/new.js', 'src/zz-last.js']);
      assert.equal(changed.get('src/a.js')['content.sha1hex'], sha1('changed'));
      assert.equal(changed.get('src/lib/b.js').exists, false);
      client.end();
      console.log('ok');
    }
    main().catch(fail);
    """#

    @Test(.enabled(if: required || hasFBWatchman)) func jestsClientCrawlsSubscribesAndAsksSince() {
        let scratch = Scratch()
        defer { scratch.remove() }
        let sock = scratch.file("sock")
        let server = RWatch(["serve", "--sockname", sock], in: scratch.path, scratch: scratch)
        #expect(eventually { WatchmanSocket(sock) != nil })
        let project = scratch.file("project")
        mkdir(project, 0o755)
        let script = scratch.file("jest.js")
        TemporaryDirectory.write(bytes: Array(script.utf8), Self.script)
        var environment = Self.environment
        environment["WATCHMAN_SOCK"] = sock
        let run = Command.run(["node", script, project], environment: environment)
        #expect(run.output == "ok\n", "\(run.output)\(run.errors)")
        #expect(server.interrupt() == 0)
    }
}
