// `import.meta.env` as Vite defines it (the backend switch reads VITE_PETSTORE_API).
/// <reference types="vite/client" />
