// The app code under test: a tiny client of the Pet Store API, as a frontend has one.
export interface Category {
  id: number;
  name: string;
  description?: string;
}

export class PetStoreClient {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  async listCategories(): Promise<Category[]> {
    return (await this.call('GET', '/categories')) as Category[];
  }

  async createCategory(name: string): Promise<Category> {
    return (await this.call('POST', '/categories', { name })) as Category;
  }

  private async call(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.apiKey}`,
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as unknown;
    if (!response.ok) {
      const { code, message } = json as { code: string; message: string };
      throw Object.assign(new Error(`${response.status} ${code}: ${message}`), {
        status: response.status,
        retryAfter: response.headers.get('Retry-After'),
      });
    }
    return json;
  }
}
