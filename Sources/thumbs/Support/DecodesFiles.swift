/// A command that decodes library files (a walk's headers, renders): the command line forks its
/// first render worker as it starts (`PrestartedWorker`), before it parses anything else.
protocol DecodesFiles {}
