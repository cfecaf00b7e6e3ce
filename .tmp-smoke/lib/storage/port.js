export class DocumentExistsError extends Error {
    path;
    constructor(path) {
        super(`document already exists: ${path}`);
        this.path = path;
        this.name = "DocumentExistsError";
    }
}
export class DocumentMissingError extends Error {
    path;
    constructor(path) {
        super(`document does not exist: ${path}`);
        this.path = path;
        this.name = "DocumentMissingError";
    }
}
/** The store gave up on a transaction after retries (Firestore ABORTED). */
export class ContentionError extends Error {
    constructor(message = "the store is busy with conflicting writes") {
        super(message);
        this.name = "ContentionError";
    }
}
export function splitPath(path) {
    const cut = path.lastIndexOf("/");
    if (cut <= 0 || cut === path.length - 1)
        throw new Error(`not a document path: ${path}`);
    return { collection: path.slice(0, cut), id: path.slice(cut + 1) };
}
//# sourceMappingURL=port.js.map