// One definition for the tools and the clients: the card-models contract.
export { langFromPath } from '@dsh/card-models/contract';
