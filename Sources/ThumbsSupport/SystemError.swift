import Glibc

/// errno as text, for the messages of errors that come from a system call.
package enum SystemError {
    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}
